import type { Adapter } from '../types.js';
import { allauth } from './allauth.js';
import { djangoInvitations } from './django-invitations.js';
import { djoser } from './djoser.js';
import { ghost } from './ghost.js';
import { mailman } from './mailman.js';
import { postfixadmin } from './postfixadmin.js';

/** Every product adapter, most valuable first. */
export const ADAPTERS: readonly Adapter[] = [ghost, allauth, mailman, postfixadmin, djoser, djangoInvitations];
