export { createS3ExportStorage, type S3ExportStorageOptions } from './s3-export-storage.js';
