// The scopes a client may ask the authorization server for, with the sentence the consent page shows.
export const MCP_SCOPE = 'mcp';

const OAUTH_SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Confirm who you are (your account id)',
  email: 'See your e-mail address',
  profile: 'See your name',
  offline_access: 'Stay connected while you are away (a refresh token)',
  [MCP_SCOPE]:
    'Use the Overlook assistant tools as you: your projects and cameras, camera health, recorded snapshots and their days and hours, PTZ presets, and moving a camera to a preset — only where your own role allows it',
};

export const describeScope = (scope: string) => OAUTH_SCOPE_DESCRIPTIONS[scope] ?? scope;
