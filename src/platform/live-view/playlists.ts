// The playlists a player reads. The master playlist names one variant, the media playlist, with a
// media token in its URI; the media playlist ffmpeg writes is served with a token on every segment
// URI, so a player that cannot send headers fetches everything with the URL alone.

export interface VariantInfo {
  width: number | null;
  height: number | null;
  /** RFC 6381 codec string, when the profile is known. */
  codecs: string | null;
}

/** avc1.PPCCLL for the H.264 profiles cameras use (level 4.0 announced: what they send at most). */
export function avcCodecs(profile: string | null): string | null {
  const byProfile: Record<string, string> = { baseline: 'avc1.42e028', 'constrained baseline': 'avc1.42e028', main: 'avc1.4d0028', high: 'avc1.640028' };
  return profile ? (byProfile[profile.toLowerCase()] ?? null) : null;
}

export function masterPlaylist(variantUri: string, v: VariantInfo): string {
  const attrs = ['BANDWIDTH=2000000'];
  if (v.width && v.height) attrs.push(`RESOLUTION=${v.width}x${v.height}`);
  if (v.codecs) attrs.push(`CODECS="${v.codecs}"`);
  return ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS', `#EXT-X-STREAM-INF:${attrs.join(',')}`, variantUri, ''].join('\n');
}

/** ffmpeg's playlist with `?token=` on each URI line (every line that is not a tag or blank). */
export function withTokens(playlist: string, token: string): string {
  const q = `token=${encodeURIComponent(token)}`;
  return playlist
    .split('\n')
    .map((line) => {
      const l = line.trim();
      if (l === '' || l.startsWith('#')) return line;
      return `${l}${l.includes('?') ? '&' : '?'}${q}`;
    })
    .join('\n');
}
