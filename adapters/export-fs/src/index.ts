export { createFsExportStorage, type FsExportStorageOptions } from './fs-export-storage.js';
