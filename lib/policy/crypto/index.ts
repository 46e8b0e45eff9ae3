/** Pure-TS SHA-512 / HMAC-SHA512: the delegation token HMAC, computed in Node and in the browser alike. */
export { sha512, hmacSha512, toBase64, utf8, tokenHmac } from "./sha512";
