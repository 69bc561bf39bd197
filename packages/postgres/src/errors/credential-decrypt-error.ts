import { ToolsmithError } from '@toolsmith/core';

/**
 * A stored credential could not be decrypted: the `encryptionKey` is not the one it was written with,
 * or the row was altered or moved to another key (each row's ciphertext is bound to its own key).
 */
export class CredentialDecryptError extends ToolsmithError {
  constructor(what: string) {
    super(
      'CREDENTIAL_DECRYPT_FAILED',
      `The stored ${what} could not be decrypted: the encryptionKey differs from the one it was written with, or the row was changed. ` +
        'Fix: pass the original key (rows written with another key stay unreadable; delete them to ask the users again).',
    );
  }
}
