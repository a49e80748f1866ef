/** The fault cases (faultCases.ts) in n8n's single mode: one n8n on Postgres behind the balancer. */
import { describeMode } from './faultCases';

describeMode('single');
