// A media hub file is served only with the Authorization header (there is no media token for it), so
// a link cannot fetch it: the app fetches it as a blob and hands it to the browser as a download.
import { api } from './api.js';

const fileName = (item) => {
  if (item.type === 'file' && item.file_name) return item.file_name;
  const base =
    item.title
      .replace(/[^\p{L}\p{N}._ -]+/gu, '')
      .trim()
      .replace(/\s+/g, '-') || item.id;
  return `${base}.mp4`;
};

/** The item's stored file as a Blob (the rendered MP4 or the upload). */
export const fetchFile = (item) => api('GET', `/v2/media-hub/${encodeURIComponent(item.id)}/file`);

/** Saves the item's file under a readable name through a temporary object URL. */
export async function download(item) {
  const blob = await fetchFile(item);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(item);
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the blob by the time the click's task ends; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
