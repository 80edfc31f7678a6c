-- Customer messages about class bookings (issue 44): new kinds, planned from class.booking.* events
-- with the class booking as their subject (subject_id; no appointment, no queue entry).
ALTER TABLE messages DROP CONSTRAINT messages_kind_check,
  ADD CONSTRAINT messages_kind_check CHECK (kind IN ('confirmation', 'change', 'cancellation', 'reminder', 'queue_called', 'rebook_nudge',
    'class_confirmation', 'class_waitlisted', 'class_offer', 'class_promoted', 'class_cancelled', 'class_reminder'));
