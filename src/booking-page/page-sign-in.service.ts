// The booking page's sign-in: a code by email or by text (src/customers/sign-in/), for the store
// behind an enabled page, guarded by the honeypot and a spent proof of work when sending, and
// throttled per client address (ctx.ip: the socket's address, or the forwarded one when it came
// through a TRUST_PROXY proxy) when sending and when verifying.
import { sendCode, sendSmsCode, verifyCode, verifySmsCode } from '../customers/sign-in/sign-in.service.ts';
import { addressHash, pageStore, refuseHoneypot } from './booking-page.service.ts';
import type { PageContext } from './page-context.ts';
import type { SendCodeBody, SendSmsCodeBody, VerifyCodeBody, VerifySmsCodeBody } from './booking-page.schemas.ts';

/** The store behind the page, once the send passed the honeypot and spent its proof of work. */
async function guardedStore(ctx: PageContext, slug: string, body: Pick<SendCodeBody, 'website' | 'altcha'>) {
  const store = await pageStore(ctx, slug);
  refuseHoneypot(body.website);
  await ctx.page.challenges.spend(body.altcha);
  return store;
}

export async function sendPageEmailCode(ctx: PageContext, slug: string, body: SendCodeBody) {
  return sendCode(ctx.page.signIn, await guardedStore(ctx, slug, body), body.email, addressHash(ctx));
}

export async function verifyPageEmailCode(ctx: PageContext, slug: string, body: VerifyCodeBody) {
  return verifyCode(ctx.page.signIn, await pageStore(ctx, slug), body, addressHash(ctx));
}

export async function sendPageSmsCode(ctx: PageContext, slug: string, body: SendSmsCodeBody) {
  return sendSmsCode(ctx.page.signIn, await guardedStore(ctx, slug, body), body.phone, addressHash(ctx));
}

export async function verifyPageSmsCode(ctx: PageContext, slug: string, body: VerifySmsCodeBody) {
  return verifySmsCode(ctx.page.signIn, await pageStore(ctx, slug), body, addressHash(ctx));
}
