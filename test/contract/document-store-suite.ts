import type { DocumentStore } from '@ephemail/core';
import type { TestFn } from 'ava';
import { bytesCases } from './bytes-cases.js';
import type { ContractCase } from './contract-case.js';
import { crudCases } from './crud-cases.js';
import { filterCases } from './filter-cases.js';
import { incrementCases } from './increment-cases.js';
import { insertAllCases } from './insert-all-cases.js';
import { lifecycleCases } from './lifecycle-cases.js';
import { orderCases } from './order-cases.js';
import { raceCases } from './race-cases.js';
import { transactCases } from './transact-cases.js';
import { updateCases } from './update-cases.js';

/** A fresh store for one test, and how to dispose of what it left behind once it is closed. */
export interface DocumentStoreFixture {
  readonly store: DocumentStore;
  readonly cleanup?: () => Promise<void>;
}

/** Every rule of the {@link DocumentStore} contract, by title. */
export const documentStoreCases: Readonly<Record<string, ContractCase>> = {
  ...crudCases,
  ...insertAllCases,
  ...transactCases,
  ...lifecycleCases,
  ...filterCases,
  ...orderCases,
  ...raceCases,
  ...incrementCases,
  ...updateCases,
  ...bytesCases,
};

/**
 * Registers the storage contract with `test`, once per rule, titled `'<name>: <rule>'`. Each test
 * gets its own store from `factory` and closes it afterwards; tests use random collections and
 * ids, so they may run concurrently.
 */
export const runDocumentStoreContract = (
  test: TestFn,
  name: string,
  factory: () => Promise<DocumentStoreFixture>,
): void => {
  for (const [rule, check] of Object.entries(documentStoreCases)) {
    test(`${name}: ${rule}`, async (t) => {
      const { store, cleanup } = await factory();
      t.teardown(async () => {
        await store.close();
        await cleanup?.();
      });
      await check(t, store);
    });
  }
};
