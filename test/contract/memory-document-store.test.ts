import { createMemoryDocumentStore } from '@ephemail/core';
import test from 'ava';
import { runDocumentStoreContract } from './document-store-suite.js';

runDocumentStoreContract(test, 'memory', async () => ({ store: createMemoryDocumentStore() }));
