/** A QR code of a payment link as binary data next to an item's JSON (for a chat message or an email): the option and the image. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ItemWithBinary, optionsOf } from '../../n8n/items';
import { qrImage } from '../../shared/qrImage';

/** The "QR Code" option; `what` names what is drawn (e.g. `the payment URI`), `description` the whole help. */
export function qrCodeOption(what: string, description: string): INodeProperties {
	return {
		displayName: 'QR Code',
		name: 'qrCode',
		type: 'options',
		options: [
			{ name: 'None', value: 'none' },
			{
				name: 'PNG Image',
				value: 'png',
				description: `A 1-bit PNG of ${what} in the binary field qrCode`,
			},
			{
				name: 'SVG Image',
				value: 'svg',
				description: `A scalable SVG of ${what} in the binary field qrCode`,
			},
		],
		default: 'none',
		description,
	};
}

/** `json` with the QR code of `text` in the binary field `qrCode` when the option asks for one (and there is a text), else `json` as is. */
export async function withQrCodeOption(
	ctx: IExecuteFunctions,
	i: number,
	json: IDataObject,
	text: unknown,
	baseName: string,
): Promise<IDataObject | ItemWithBinary> {
	const format = optionsOf(ctx, i).qrCode;
	if ((format !== 'png' && format !== 'svg') || typeof text !== 'string') return json;
	const image = qrImage(text, format);
	const binary = await ctx.helpers.prepareBinaryData(
		Buffer.from(image.data),
		`${baseName}.${image.extension}`,
		image.mimeType,
	);
	return new ItemWithBinary(json, { qrCode: binary });
}
