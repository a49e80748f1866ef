/** standingAddress.pause: PATCH /v1/standing-deposit-addresses/{ref}/enabled {enabled: false} (public-notes; server key; path unconfirmed): deposits are held, not converted. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { showFor } from '../common.descriptions';
import { enabledSwitchDescription, switchEnabled } from './enabledSwitch';

/** An action: it changes state at the service, so an AI agent runs it only with "Allow Actions as AI Tool". */
export const toolAction = true;

export const description: INodeProperties[] = enabledSwitchDescription(
	showFor('standingAddress', ['pause']),
	'Pause',
);

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject> {
	return await switchEnabled(this, i, false);
}
