/**
 * Binary data an output item carries next to its JSON, made with n8n's binary helpers: today the QR
 * code of a payment URI (nodes/shared/qrImage.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { qrImage, type QrFormat } from '../shared/qrImage';
import { ItemWithBinary } from './items';

/** What to draw and where: the text encoded, the image format, the binary field and the file's name without extension. */
export interface QrCodeFile {
	text: string;
	format: QrFormat;
	field: string;
	baseName: string;
}

/** `json` with a QR code of `qr.text` in the binary field `qr.field`. */
export async function withQrCode(ctx: IExecuteFunctions, json: IDataObject, qr: QrCodeFile): Promise<ItemWithBinary> {
	const image = qrImage(qr.text, qr.format);
	const binary = await ctx.helpers.prepareBinaryData(Buffer.from(image.data), `${qr.baseName}.${image.extension}`, image.mimeType);
	return new ItemWithBinary(json, { [qr.field]: binary });
}
