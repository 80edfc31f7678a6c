// The SMTP transport (src/notifications/channels/smtp.transport.ts) against a relay that accepts a
// connection and drops it: the send fails at once, as a transient failure, after one connection.
// The messages sender owns retries under its claim; a transport that retried by itself kept a send
// pending past the claim's lease, and another worker sent the same message as well
// (reliability/proofs/messages.ts found the two copies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { smtpTransport } from '../../../src/notifications/channels/smtp.transport.ts';
import { SendFailure } from '../../../src/notifications/channels/transport.ts';

test('a relay that drops the connection fails the send after one connection, as a failure worth retrying later', async () => {
  let connections = 0;
  const relay = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as AddressInfo).port;
  const transport = smtpTransport({ url: `smtp://127.0.0.1:${port}`, from: 'Shop <shop@example.test>' });
  try {
    const failure = await transport
      .send({
        channel: 'email',
        to: 'someone@example.test',
        subject: 'Booked',
        text: 'See you',
        html: '<p>See you</p>',
        ics: null,
        icsMethod: null,
        messageId: '<drop-1@example.test>',
      })
      .then(
        () => null,
        (err) => err,
      );
    assert.ok(failure instanceof SendFailure, `the send failed with ${failure}`);
    assert.equal(failure.permanent, false, 'a dropped connection may succeed later');
    assert.equal(connections, 1, 'the transport did not try again on its own');
  } finally {
    await transport.close();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
  }
});
