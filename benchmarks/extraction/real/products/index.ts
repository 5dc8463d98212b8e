import type { Adapter } from '../types.js';
import { allauth } from './allauth.js';
import { djangoInvitations } from './django-invitations.js';
import { djoser } from './djoser.js';
import { mailman } from './mailman.js';
import { postfixadmin } from './postfixadmin.js';

/** Every product adapter, most valuable first. */
export const ADAPTERS: readonly Adapter[] = [allauth, mailman, postfixadmin, djoser, djangoInvitations];
