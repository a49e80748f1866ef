import { ProtocolError } from '../../../nodes/shared/errors';

/** The ProtocolError `fn` throws (field, reason, message); fails the test when it throws nothing else. */
export function protocolFailure(fn: () => unknown): { field?: string; reason?: string; message: string } {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(ProtocolError);
		const { field, reason, message } = error as ProtocolError;
		return { field, reason, message };
	}
	throw new Error('expected a ProtocolError');
}
