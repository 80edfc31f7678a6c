// The booking page's sign-in: a code by email or by text (src/customers/sign-in/), for the store
// behind an enabled page, guarded by the honeypot and a spent proof of work when sending, and
// throttled per client address (request.ip: the socket's address, or the forwarded one when it
// came through a TRUST_PROXY proxy) when sending and when verifying.
import type { FastifyRequest } from 'fastify';
import { sendCode, sendSmsCode, verifyCode, verifySmsCode } from '../customers/sign-in/sign-in.service.ts';
import { addressHash, pageStore, refuseHoneypot } from './booking-page.service.ts';
import type { PageDeps } from './page-deps.ts';
import type { SendCodeBody, SendSmsCodeBody, VerifyCodeBody, VerifySmsCodeBody } from './booking-page.schemas.ts';

export async function sendPageEmailCode(deps: PageDeps, request: FastifyRequest, slug: string, body: SendCodeBody) {
  const store = await pageStore(deps, slug);
  refuseHoneypot(body.website);
  await deps.challenges.spend(body.altcha);
  return sendCode(deps.signIn, store, body.email, addressHash(deps, request.ip));
}

export async function verifyPageEmailCode(deps: PageDeps, request: FastifyRequest, slug: string, body: VerifyCodeBody) {
  return verifyCode(deps.signIn, await pageStore(deps, slug), body, addressHash(deps, request.ip));
}

export async function sendPageSmsCode(deps: PageDeps, request: FastifyRequest, slug: string, body: SendSmsCodeBody) {
  const store = await pageStore(deps, slug);
  refuseHoneypot(body.website);
  await deps.challenges.spend(body.altcha);
  return sendSmsCode(deps.signIn, store, body.phone, addressHash(deps, request.ip));
}

export async function verifyPageSmsCode(deps: PageDeps, request: FastifyRequest, slug: string, body: VerifySmsCodeBody) {
  return verifySmsCode(deps.signIn, await pageStore(deps, slug), body, addressHash(deps, request.ip));
}
