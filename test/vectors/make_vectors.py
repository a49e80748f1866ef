#!/usr/bin/env python3
"""
Golden vectors written from the spec's text, computed with tools independent of this package
(Python's hashlib and hmac, pyca/cryptography for secp256k1 with RFC 6979 nonces, pycryptodome for
Keccak-256). The canonical messages below are typed by hand from execution-gateway.md §2.4; the
package's code is never imported. Run: python3 test/vectors/make_vectors.py (pip install
cryptography pycryptodome); it rewrites canonical-intent.json and webhook-signature.json.
"""
import hashlib
import hmac
import json
import os

from Crypto.Hash import keccak
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

HERE = os.path.dirname(os.path.abspath(__file__))
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141  # secp256k1 group order (SEC 2)

PRIVATE_KEY = '11' * 32  # public test key (sandbox seed), never for funds
RECIPIENT = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23'
BTC_ID = '0123456789abcdef0123456789abcdef'  # 32 hex: Bitcoin transfer (§2.4)
BTC_ID_2 = 'fedcba9876543210fedcba9876543210'
TOKEN_ID_TRANSFER = 'aa' * 32  # 64 hex: token transfer (§2.4)
TOKEN_ID = '0f' * 32  # 32-byte token id
EXPIRES_AT = 1893456000000  # 2030-01-01T00:00:00Z in unix ms
# Ethereum mainnet tx 0x0ec0b6a2... (a signed EIP-1559 transaction, public), see test/unit/gateway/eip1559.test.ts
MAINNET_RAW = (
    '0x02f8b00142843b9aca008504a817c80082ad62946069a6c32cf691f5982febae4faf8a6f3ab2f0f680b844a22cb465'
    '0000000000000000000000005eee75727d804a2b13038928d36f8b188945a57a'
    '0000000000000000000000000000000000000000000000000000000000000000c080'
    'a0840cfc572845f5786e702984c2a582528cad4b49b2a10b9db1be7fca90058565'
    'a025e7109ceb98168d95b09b18bbf6b685130e0562f233877d492b94eee0c5b6d1'
)


def keccak_hex(raw_hex):
    k = keccak.new(digest_bits=256)
    k.update(bytes.fromhex(raw_hex[2:]))
    return '0x' + k.hexdigest()


SIGNED_TX_HASH = keccak_hex(MAINNET_RAW)
assert SIGNED_TX_HASH == '0x0ec0b6a2df4d87424e5f6ad2a654e27aaeb7dac20ae9e8385cc09087ad532ee0'  # etherscan

# Each vector: the wire request of §2.1 (amounts as digit strings: u64 does not fit a JS number)
# and the canonical message of §2.4, typed by hand: fields chainId, transfers, action, nonce,
# expiresAt in that order; transfers use transferId/amountSats/assetType/tokenId (tokenId only for
# SparkToken); amountSats is a JSON number written with all its digits; no whitespace.
VECTORS = [
    {
        'name': 'deposit-only, one Bitcoin transfer',
        'wire': {'chainId': 3637, 'deposits': [{'sparkTransferId': BTC_ID, 'asset': {'type': 'btc'}, 'amount': '5000'}],
                 'recipient': RECIPIENT, 'nonce': 'order-1001', 'expiresAt': EXPIRES_AT},
        'canonical': '{"chainId":3637,"transfers":[{"transferId":"0123456789abcdef0123456789abcdef","amountSats":5000,"assetType":"NativeSats"}],'
                     '"action":{"type":"deposit","recipient":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"},"nonce":"order-1001","expiresAt":1893456000000}',
    },
    {
        'name': 'deposit-only, Bitcoin and token transfers, token amount at the u64 maximum',
        'wire': {'chainId': 3637, 'deposits': [
            {'sparkTransferId': BTC_ID_2, 'asset': {'type': 'btc'}, 'amount': '123456789'},
            {'sparkTransferId': TOKEN_ID_TRANSFER, 'asset': {'type': 'token', 'tokenId': TOKEN_ID}, 'amount': '18446744073709551615'},
        ], 'recipient': RECIPIENT, 'nonce': 'n8n-0123456789abcdef0123456789abcdef', 'expiresAt': EXPIRES_AT},
        'canonical': '{"chainId":3637,"transfers":[{"transferId":"fedcba9876543210fedcba9876543210","amountSats":123456789,"assetType":"NativeSats"},'
                     '{"transferId":"' + TOKEN_ID_TRANSFER + '","amountSats":18446744073709551615,"assetType":"SparkToken","tokenId":"' + TOKEN_ID + '"}],'
                     '"action":{"type":"deposit","recipient":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"},"nonce":"n8n-0123456789abcdef0123456789abcdef","expiresAt":1893456000000}',
    },
    {
        'name': 'deposit-only, no transfers (the list may be empty, §2.1)',
        'wire': {'chainId': 3637, 'deposits': [], 'recipient': RECIPIENT, 'nonce': 'empty-1', 'expiresAt': EXPIRES_AT},
        'canonical': '{"chainId":3637,"transfers":[],"action":{"type":"deposit","recipient":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"},"nonce":"empty-1","expiresAt":1893456000000}',
    },
    {
        'name': 'nonce with a quote and non-ASCII text: JSON escaping, then UTF-8 bytes',
        'wire': {'chainId': 3637, 'deposits': [{'sparkTransferId': BTC_ID, 'asset': {'type': 'btc'}, 'amount': '1000'}],
                 'recipient': RECIPIENT, 'nonce': 'caf\u00e9 "7"', 'expiresAt': EXPIRES_AT},
        'canonical': '{"chainId":3637,"transfers":[{"transferId":"0123456789abcdef0123456789abcdef","amountSats":1000,"assetType":"NativeSats"}],'
                     '"action":{"type":"deposit","recipient":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"},"nonce":"caf\u00e9 \\"7\\"","expiresAt":1893456000000}',
    },
    {
        'name': 'deposit-and-execute: the action carries keccak256 of the signed transaction',
        'wire': {'chainId': 1, 'deposits': [{'sparkTransferId': BTC_ID, 'asset': {'type': 'btc'}, 'amount': '2500'}],
                 'evmTransaction': MAINNET_RAW, 'nonce': 'exec-1', 'expiresAt': EXPIRES_AT},
        'canonical': '{"chainId":1,"transfers":[{"transferId":"0123456789abcdef0123456789abcdef","amountSats":2500,"assetType":"NativeSats"}],'
                     '"action":{"type":"execute","signedTxHash":"' + SIGNED_TX_HASH + '"},"nonce":"exec-1","expiresAt":1893456000000}',
        'sandboxAdmission': False,  # the transaction is signed for chain 1, not the sandbox's chain
    },
]


def wire_body(wire, signature):
    """The §2.1 request text with u64 amounts as bare JSON numbers, field order as in §2.1."""
    deposits = ','.join(
        '{"sparkTransferId":%s,"asset":%s,"amount":%s}' % (json.dumps(d['sparkTransferId']), json.dumps(d['asset'], separators=(',', ':')), d['amount'])
        for d in wire['deposits'])
    action = '"recipient":%s' % json.dumps(wire['recipient']) if 'recipient' in wire else '"evmTransaction":%s' % json.dumps(wire['evmTransaction'])
    return '{"chainId":%d,"deposits":[%s],%s,"signature":"%s","nonce":%s,"expiresAt":%d}' % (
        wire['chainId'], deposits, action, signature, json.dumps(wire['nonce'], ensure_ascii=False), wire['expiresAt'])


def main():
    priv = ec.derive_private_key(int(PRIVATE_KEY, 16), ec.SECP256K1())
    public_key = priv.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint).hex()
    out = []
    for v in VECTORS:
        # the hand-typed text must at least be JSON whose field order is the spec's
        parsed = json.loads(v['canonical'])
        assert list(parsed.keys()) == ['chainId', 'transfers', 'action', 'nonce', 'expiresAt'], v['name']
        digest = hashlib.sha256(v['canonical'].encode('utf-8')).digest()
        der = priv.sign(digest, ec.ECDSA(utils.Prehashed(hashes.SHA256()), deterministic_signing=True))
        r, s = utils.decode_dss_signature(der)
        low_s = utils.encode_dss_signature(r, N - s if s > N // 2 else s).hex()  # low-S form (BIP-62)
        entry = {
            'name': v['name'],
            'wire': v['wire'],
            'canonical': v['canonical'],
            'sha256': digest.hex(),
            'signatureRfc6979LowS': low_s,
            'wireBody': wire_body(v['wire'], low_s),
            'sandboxAdmission': v.get('sandboxAdmission', True),
        }
        out.append(entry)
    doc = {
        'source': 'execution-gateway.md §2.1 (wire), §2.4 (canonical message), §5 (DER over SHA-256); typed by hand, computed by test/vectors/make_vectors.py',
        'privateKey': PRIVATE_KEY,
        'publicKey': public_key,
        'vectors': out,
    }
    with open(os.path.join(HERE, 'canonical-intent.json'), 'w', encoding='utf-8') as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write('\n')

    hooks = []
    for name, secret, timestamp, raw in [
        ('spec envelope, compact', 'whsec_golden_vector_secret_0001', '1767225600000',
         '{"event":"order.completed","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"ord_1","status":"completed","updatedAt":"2026-01-01T00:00:00.000Z"}}'),
        ('raw bytes with whitespace and non-ASCII are signed as received', 'whsec_golden_vector_secret_0002', '1767225601234',
         '{ "event": "order.processing",\n  "data": {"id": "ord_2", "note": "d\u00e9p\u00f4t \u2713", "status": "processing", "updatedAt": "2026-01-01T00:00:01.234Z"} }'),
        ('same bytes, a later attempt: fresh timestamp, another signature', 'whsec_golden_vector_secret_0001', '1767225610000',
         '{"event":"order.completed","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"ord_1","status":"completed","updatedAt":"2026-01-01T00:00:00.000Z"}}'),
    ]:
        mac = hmac.new(secret.encode('utf-8'), timestamp.encode('ascii') + b'.' + raw.encode('utf-8'), hashlib.sha256).hexdigest()
        hooks.append({'name': name, 'secret': secret, 'timestamp': timestamp, 'rawBody': raw, 'signature': mac})
    with open(os.path.join(HERE, 'webhook-signature.json'), 'w', encoding='utf-8') as f:
        json.dump({
            'source': 'orchestration-service.md §6: lowercase hex HMAC-SHA256(secret, timestamp + "." + raw_body); computed by test/vectors/make_vectors.py with Python hmac',
            'vectors': hooks,
        }, f, indent=2, ensure_ascii=False)
        f.write('\n')


if __name__ == '__main__':
    main()
