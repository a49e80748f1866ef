/** standingAddress.getDeposits: GET /v1/standing-deposit-addresses/{ref}/deposits?limit=&offset=, newest first (public-notes; the path is from public client code; server key). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection } from '../../../n8n/descriptions';
import {
	integerOption,
	invalidField,
	optionsOf,
	textOption,
	textParameter,
} from '../../../n8n/items';
import { withFormattedAmounts } from '../../../shared/orchestration/amounts';
import {
	DEPOSITS_PAGE_MAX,
	STANDING_DEPOSITS_PATH,
	standingDepositsPath,
} from '../../../shared/orchestration/partnerPlan';
import { limitField, returnAllField, showFor } from '../common.descriptions';
import { readPages } from '../../helpers/paging';
import { catalogueFor } from '../../helpers/routes';
import { referenceField } from './createOrGet';

const show = showFor('standingAddress', ['getDeposits']);

export const description: INodeProperties[] = [
	referenceField(show),
	returnAllField(show),
	limitField(show),
	optionsCollection(show, [
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 1000 },
			default: DEPOSITS_PAGE_MAX,
			description: `Deposits asked for per request (the "limit" query parameter). The service's maximum is not published: ${DEPOSITS_PAGE_MAX} is the package's guess; lower it if the service refuses the limit.`,
		},
		{
			displayName: 'Request Path',
			name: 'requestPath',
			type: 'string',
			default: STANDING_DEPOSITS_PATH,
			description:
				'Path of the deposits listing under the Base URL ({ref} stands for the encoded reference). It comes from public client code; change it only if the service documents another one.',
		},
	]),
];

export async function execute(this: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const reference = textParameter(this, 'reference', i);
	const options = optionsOf(this, i);
	const pathTemplate = textOption(options, 'requestPath') ?? STANDING_DEPOSITS_PATH;
	const path = standingDepositsPath(reference, pathTemplate);
	const pageSize = integerOption(options, 'pageSize') ?? DEPOSITS_PAGE_MAX;
	if (pageSize < 1 || pageSize > 1000)
		throw invalidField(
			this,
			i,
			'pageSize',
			`${pageSize} is out of range; it must be a whole number from 1 to 1000`,
		);
	// the path may be the user's "Request Path": the row is the documented one's
	const deposits = await readPages(this, i, {
		path,
		member: 'deposits',
		pageMax: pageSize,
		endpoint: `GET ${STANDING_DEPOSITS_PATH}`,
	});
	const catalogue = deposits.length > 0 ? await catalogueFor(this, i, false) : undefined;
	return deposits.map((deposit) => {
		const chain = typeof deposit.chain === 'string' ? deposit.chain : undefined;
		const asset = typeof deposit.asset === 'string' ? deposit.asset : undefined;
		return withFormattedAmounts(
			{ reference, ...deposit },
			{ amount: catalogue?.find(chain, asset)?.decimals },
		);
	});
}
