// What other folders of the recorder may use of devices: the device record and its id parameter, its
// state and source, the schedule check and the service's type. Other folders import this file only
// (docs/architecture.md, The recorder's folders).
export { type Device, DeviceId, type DeviceState, type SourceSpec } from './device-record.js';
export type { DevicesService } from './devices-service.js';
export { scheduleOpen } from './schedule.js';
