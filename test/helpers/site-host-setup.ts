// The site namespace of a project's run (vitest globalSetup; netns.ts): made before any of its files
// runs, removed after the last one, so that no browser test has a load under way when this host's
// addresses change.
import type { TestProject } from 'vitest/node';
import { available, makeSite, removeSite } from './netns.js';

export default function setup(project: TestProject): () => void {
  const site = available() ? makeSite() : null;
  project.provide('siteHost', site);
  return () => {
    if (site) removeSite(site);
  };
}
