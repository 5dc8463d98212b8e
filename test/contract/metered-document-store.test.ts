import { createMemoryDocumentStore, createTally } from '@ephemail/core';
import { meteredStore } from '@ephemail/host-api';
import test from 'ava';
import { runDocumentStoreContract } from './document-store-suite.js';

// The host times its store through this wrapper: it must keep every rule of the port, the
// optional operations included (present when the store has them).
runDocumentStoreContract(test, 'metered memory', async () => ({ store: meteredStore(createMemoryDocumentStore(), createTally()) }));
