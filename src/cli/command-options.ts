// The options the platform's commands parse, as their actions receive them.
export interface DataDirOpts {
  dataDir?: string;
}
export interface ServeOpts extends DataDirOpts {
  host?: string;
  port?: string;
}
export interface CreateUserOpts extends DataDirOpts {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  admin: boolean;
}
export interface ResetPasswordOpts extends DataDirOpts {
  email: string;
  password?: string;
}
