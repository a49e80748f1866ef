/**
 * standingAddress.pause: PATCH {enabled: false} (public-notes; server key): the address stays
 * assigned and deposits paid to it are held instead of converted. The path is unconfirmed by the
 * docs (enabledSwitch.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ServiceAccess } from '../../../n8n/orchestrationClient';
import { showFor } from '../../parameters';
import type { OrchestrationReader } from '../../itemReader';
import { enabledSwitchDescription, switchEnabled } from './enabledSwitch';

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = enabledSwitchDescription(showFor('standingAddress', ['pause']), 'Pause');

export async function execute(this: IExecuteFunctions, read: OrchestrationReader, access: ServiceAccess): Promise<IDataObject> {
	return await switchEnabled(read, access, false);
}
