// Every e-mail's text and HTML bodies from one description, so the two always say the same. Everything
// put into the HTML is escaped here: names, titles and addresses come from people.

export interface MessageParts {
  subject: string;
  /** Paragraphs of plain text. */
  paragraphs: string[];
  /** The one thing to do, as a button in HTML and a bare link in text. */
  action?: { label: string; url: string };
  /** Pictures shown in the HTML (by `cid:`), each with its caption; a caption without `cid` says why there is no picture. */
  pictures?: { caption: string; cid?: string }[];
  /** Why the person gets this and the link that turns it off. */
  footer?: { reason: string; unsubscribeUrl: string };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function renderText(m: MessageParts): string {
  const lines = [...m.paragraphs];
  if (m.action) lines.push(`${m.action.label}: ${m.action.url}`);
  for (const p of m.pictures ?? []) lines.push(p.cid ? `${p.caption} (attached)` : p.caption);
  if (m.footer) lines.push('--', m.footer.reason, `Unsubscribe: ${m.footer.unsubscribeUrl}`);
  return `${lines.join('\n\n')}\n`;
}

export function renderHtml(m: MessageParts): string {
  const body = [
    ...m.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    m.action
      ? `<p><a href="${escapeHtml(m.action.url)}" style="display:inline-block;padding:10px 16px;background:#1f5f99;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(m.action.label)}</a></p>`
      : '',
    ...(m.pictures ?? []).map((p) =>
      p.cid
        ? `<figure style="margin:16px 0"><img src="cid:${escapeHtml(p.cid)}" alt="${escapeHtml(p.caption)}" style="max-width:100%"><figcaption>${escapeHtml(p.caption)}</figcaption></figure>`
        : `<p><em>${escapeHtml(p.caption)}</em></p>`,
    ),
    m.footer
      ? `<hr><p style="color:#666;font-size:12px">${escapeHtml(m.footer.reason)} <a href="${escapeHtml(m.footer.unsubscribeUrl)}">Unsubscribe</a></p>`
      : '',
  ].filter(Boolean);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(m.subject)}</title></head><body style="font-family:sans-serif;line-height:1.4">${body.join('')}</body></html>`;
}
