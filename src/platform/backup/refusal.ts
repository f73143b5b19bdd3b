// A backup or restore refused over its input (a missing file, a data dir in use, a damaged archive):
// the command says why and exits 2, having written nothing.
export class BackupRefused extends Error {}
