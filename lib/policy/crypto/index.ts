export { sha512, hmacSha512, toBase64, utf8, tokenHmac } from "./sha512";
