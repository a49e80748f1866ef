/**
 * `npm start`'s owner password and n8n encryption key: made at random on a clone's first start,
 * kept in its n8n user folder (`start-secrets.json`; the folder and the file readable by the user
 * only) and reused on every later start, since n8n refuses a key other than the one it encrypted
 * the credentials with. A user folder that holds data but no such file (made by an earlier `npm
 * start`, with the fixed key and password) is moved aside, never reused.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const START_SECRETS_FILE = 'start-secrets.json';

export interface StartSecrets {
	ownerPassword: string;
	encryptionKey: string;
	/** Where they are kept. */
	file: string;
	/** Made by this call (the clone's first start, or the first after its user folder was removed). */
	created: boolean;
	/** Where an earlier user folder without secrets was moved. */
	movedAside?: string;
}

/** n8n's rule for a password: 8 to 64 characters, a digit and a capital letter. */
export function isN8nPassword(password: string): boolean {
	return password.length >= 8 && password.length <= 64 && /\d/.test(password) && /[A-Z]/.test(password);
}

function fresh(): { ownerPassword: string; encryptionKey: string } {
	return { ownerPassword: `Sandbox-${randomBytes(15).toString('base64url')}-1`, encryptionKey: randomBytes(32).toString('hex') };
}

export function startSecrets(userFolder: string, now: Date = new Date()): StartSecrets {
	const file = path.join(userFolder, START_SECRETS_FILE);
	let movedAside: string | undefined;
	if (fs.existsSync(userFolder) && !fs.existsSync(file) && fs.readdirSync(userFolder).length > 0) {
		movedAside = `${userFolder}.before-secrets-${now.toISOString().replace(/[:.]/g, '-')}`;
		fs.renameSync(userFolder, movedAside);
	}
	fs.mkdirSync(userFolder, { recursive: true, mode: 0o700 });
	fs.chmodSync(userFolder, 0o700);
	let created = true;
	try {
		fs.writeFileSync(file, `${JSON.stringify(fresh(), null, 2)}\n`, { mode: 0o600, flag: 'wx' });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		created = false;
	}
	fs.chmodSync(file, 0o600);
	const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StartSecrets>;
	if (typeof kept.ownerPassword !== 'string' || !isN8nPassword(kept.ownerPassword) || typeof kept.encryptionKey !== 'string' || kept.encryptionKey.length < 32) {
		throw new Error(`${file} does not hold what npm start wrote there (ownerPassword, encryptionKey): remove the folder ${userFolder} to start over with new ones`);
	}
	return { ownerPassword: kept.ownerPassword, encryptionKey: kept.encryptionKey, file, created, ...(movedAside ? { movedAside } : {}) };
}

/** What `npm start` prints about the login: the password to log in with, and where the key is (not the key). */
export function loginLines(email: string, secrets: StartSecrets): string {
	return [
		`  Login:     ${email} / ${secrets.ownerPassword}`,
		`  Secrets:   ${secrets.file} (this clone's owner password and n8n encryption key, readable by you only;`,
		`             made on its first start, reused on every later one)`,
		...(secrets.movedAside ? [`  Moved:     the earlier n8n data (made with the old fixed key) to ${secrets.movedAside}`] : []),
	].join('\n');
}
