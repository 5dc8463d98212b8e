import { createMemoryExportStorage } from '@ephemail/core';
import test from 'ava';
import { runExportStorageContract } from './export-storage-suite.js';

runExportStorageContract(test, 'memory export storage', async () => ({ storage: createMemoryExportStorage() }));
