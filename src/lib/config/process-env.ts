// The one module that touches the process environment. Commands read it once at startup (processEnv)
// and hand it to the config builders, which validate what each service reads (env-schema.ts); child
// processes such as ffmpeg inherit it whole, with a few variables of their own on top.
export type Env = Readonly<Record<string, string | undefined>>;

export const processEnv = (): Env => process.env;

/** The environment a child process gets: this process's, plus `extra`. */
export const inheritedEnv = (extra?: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, ...extra });
