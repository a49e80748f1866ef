/** A QR code of a payment URI as binary data next to an item's JSON (for a chat message or an email). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ItemWithBinary } from '../../n8n/items';
import { qrImage, type QrFormat } from '../../shared/qrImage';

/** `json` with a QR code of `text` in the binary field `field`, the file named `baseName` plus the format's extension. */
export async function withQrCode(
	ctx: IExecuteFunctions,
	json: IDataObject,
	qr: { text: string; format: QrFormat; field: string; baseName: string },
): Promise<ItemWithBinary> {
	const image = qrImage(qr.text, qr.format);
	const binary = await ctx.helpers.prepareBinaryData(
		Buffer.from(image.data),
		`${qr.baseName}.${image.extension}`,
		image.mimeType,
	);
	return new ItemWithBinary(json, { [qr.field]: binary });
}
