/** The part of http_ece (no published types) the push service stand-in uses: aes128gcm decryption. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair (a subscription's). */
    privateKey: ECDH;
    /** The subscription's auth secret, base64url. */
    authSecret: string;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
