-- The development mailbox keeps every message that would have been emailed with no SMTP_URL outside
-- production (issue 41): a staff invitation too, not only a sign-in code. kind tells them apart; like
-- a code, an invitation's row lives only until its link expires (expires_at), and production never
-- writes here.
ALTER TABLE dev_mailbox
  ADD COLUMN kind text NOT NULL DEFAULT 'sign_in_code' CHECK (kind IN ('sign_in_code', 'staff_invitation'));
