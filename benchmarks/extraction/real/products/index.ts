import type { Adapter } from '../types.js';
import { allauth } from './allauth.js';
import { apticron } from './apticron.js';
import { cacti } from './cacti.js';
import { directus } from './directus.js';
import { djangoInvitations } from './django-invitations.js';
import { djoser } from './djoser.js';
import { ghost } from './ghost.js';
import { horde } from './horde.js';
import { kronolith } from './kronolith.js';
import { logwatch } from './logwatch.js';
import { mailman } from './mailman.js';
import { mdadm } from './mdadm.js';
import { nag } from './nag.js';
import { nagios } from './nagios.js';
import { n8n } from './n8n.js';
import { needrestart } from './needrestart.js';
import { nextauth } from './nextauth.js';
import { parseServer } from './parse-server.js';
import { payload } from './payload.js';
import { postfixadmin } from './postfixadmin.js';
import { rkhunter } from './rkhunter.js';
import { smartmontools } from './smartmontools.js';
import { strapi } from './strapi.js';
import { tryton } from './tryton.js';
import { whups } from './whups.js';

/** Every product adapter, most valuable first. */
export const ADAPTERS: readonly Adapter[] = [ghost, allauth, mailman, postfixadmin, djoser, djangoInvitations, payload, parseServer, tryton, directus, strapi, horde, nextauth, n8n, nagios, smartmontools, mdadm, apticron, needrestart, logwatch, rkhunter, kronolith, nag, whups, cacti];
