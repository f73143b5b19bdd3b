// A device's plate-reader settings and the plate formats and text rules they are checked against:
// below both devices (which store and show the settings) and plates (which read with them).
// Other folders import this file only (docs/architecture.md, The recorder's folders).
export { fitToFormat, plateFormat } from './plate-pattern.js';
export { mergePlateReader, type PlateReaderConfig, PlateReaderInput, PlateReaderView, plateReaderConfig, type WatchListEntry } from './plate-reader-config.js';
export { editDistance, normalisePlate } from './plate-text.js';
