// The site namespace of a project's run (vitest globalSetup; netns.ts): made before any of its files
// runs, removed after the last one, so that no browser test has a load under way when this host's
// addresses change.
import type { TestProject } from 'vitest/node';
import { available, makeSite, removeSite, type SiteAddresses } from './netns.js';

export default function setup(project: TestProject): () => void {
  let site: SiteAddresses | null = null;
  try {
    site = available() ? makeSite() : null;
    project.provide('siteHost', site);
  } catch (err) {
    // Only the files that need the namespace fail, with this reason (netns.ts, siteHost).
    project.provide('siteHost', { error: String(err) });
  }
  return () => {
    if (site) removeSite(site);
  };
}
