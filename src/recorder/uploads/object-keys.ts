// Where each object goes on a remote storage: decided by the device and the time alone, so a retry, or
// the same object queued again after a restart, overwrites the first copy instead of adding another.

const hourPath = (at: Date) => {
  const iso = at.toISOString();
  return `${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(11, 13)}`;
};

/** `<device>/<stream>/YYYY/MM/DD/HH/<start µs>.ts` (UTC): the layout of the recorder's own storage. */
export const segmentKey = (deviceId: string, stream: string, start: Date): string => `${deviceId}/${stream}/${hourPath(start)}/${start.getTime() * 1000}.ts`;

/** `<device>/snapshots/YYYY/MM/DD/HH/<µs>.jpg` (UTC), at the scheduled time of the snapshot. */
export const snapshotKey = (deviceId: string, at: Date): string => `${deviceId}/snapshots/${hourPath(at)}/${at.getTime() * 1000}.jpg`;
