export { createCsvStringifyEncoder, type CsvStringifyEncoderOptions } from './csv-stringify-encoder.js';
