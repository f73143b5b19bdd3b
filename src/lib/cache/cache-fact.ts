// The stored facts a cached entry was derived from. A writer that changes one of them forgets it
// (`CacheRegistry.forget`), and every entry tagged with it, in every cache, is dropped at once
// (docs/architecture.md, Caches). Each kind names what the entries tagged with it hold.

export type CacheFactKind =
  /** A person's account flags (admin, disabled), as their live sessions carry them. Id: user id. */
  | 'user'
  /** Every API key of a person: revoked together, owner disabled, a project's access lost. Id: user id. */
  | 'user-keys'
  /** A person's project memberships and roles. Id: user id. */
  | 'user-roles'
  /** One API key: its state, scopes and projects. Id: key id. */
  | 'key'
  /** One sign-in session. Id: session id. */
  | 'session'
  /** A project: its exid, which cameras belong to it, its members' roles in it. Id: project id. */
  | 'project'
  /** What other records show of a project (name, status, time zone), e.g. a camera record's `project`. Id: project exid. */
  | 'project-details'
  /** A camera's row: settings, connection, project, last health check. Id: camera exid. */
  | 'camera'
  /** What a camera's RTSP stream was found to carry (its probe results). Id: camera exid. */
  | 'camera-stream'
  /** A camera's recorded frames (its rows of the snapshot index), forgotten when any of them is removed. Id: camera id. */
  | 'camera-snapshots'
  /** An open ONVIF session at one address with one set of credentials. Id: a hash of those. */
  | 'onvif-session'
  /** One recorder access token. Id: token id. */
  | 'recorder-token'
  /** Every access token of a recorder user (new password or role, user deleted). Id: recorder user id. */
  | 'recorder-user'
  /**
   * A site link: revoked, taken over by another connection, or its cameras' recording settings changed.
   * The node holding its connection checks it again (docs/site-link.md). Id: link id.
   */
  | 'recorder-link';

export interface CacheFact {
  kind: CacheFactKind;
  id: string;
}

/** One string per fact, for indexing (kinds hold no colon). */
export const factKey = (f: CacheFact): string => `${f.kind}:${f.id}`;
