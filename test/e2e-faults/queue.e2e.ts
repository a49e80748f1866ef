/** The fault cases (faultCases.ts) in n8n's queue mode: Postgres, Redis, main, worker, two webhook processes. */
import { describeMode } from './faultCases';

describeMode('queue');
