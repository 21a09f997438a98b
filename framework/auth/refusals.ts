import { errors } from 'jose';
import { KeysUnavailable } from './key-fetch';

/**
 * Why a token was refused, as the 401's `error_description` and body say it: fixed sentences, never text of
 * the token or of the key set (a client learns what to fix, not what the server holds).
 */
export const REFUSALS = {
  missing: 'Missing bearer token: send Authorization: Bearer <token>',
  scheme: 'The Authorization header is not a Bearer token',
  malformed: 'The token is malformed',
  algorithm: 'The token is signed with an algorithm this API does not accept',
  signature: 'The token signature is invalid',
  expired: 'The token has expired',
  notYetValid: 'The token is not valid yet',
  issuer: 'The token issuer is not accepted',
  audience: 'The token audience is not accepted',
  claims: 'The token claims are invalid',
  unknownKey: 'No key of this API signed the token',
  keysUnavailable: 'The keys that verify tokens are unavailable; try again later',
  scope: 'The token lacks a scope this route needs',
} as const;

export type Refusal = keyof typeof REFUSALS;

/**
 * The refusal a verification failure stands for (jose's errors: fast-jwt answers only for tokens it accepts);
 * `keysUnavailable` for a JWKS or discovery that could not be fetched, or anything else the server failed at
 * (the guard logs those: they are the server's problem, not the client's).
 */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    // `invalid`: a claim of the wrong type (`"nbf": "soon"`), whichever it is.
    if (error.reason === 'invalid') return 'claims';
    if (error.claim === 'nbf') return 'notYetValid';
    if (error.claim === 'iss') return 'issuer';
    if (error.claim === 'aud') return 'audience';
    return 'claims';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return 'unknownKey';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || error instanceof KeysUnavailable) return 'keysUnavailable';
  if (error instanceof errors.JOSENotSupported) return 'algorithm';
  if (error instanceof errors.JOSEError) return 'malformed';
  // Anything else failed on the server's side (a key jose cannot verify with, such as RSA under 2048 bits).
  return 'keysUnavailable';
}
