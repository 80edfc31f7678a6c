// The one party-size rule: wherever a request names a service and a party (an appointment create,
// a walk-in join), the party must fit the service's party_min..party_max. A reschedule names no
// service: it keeps the party and the service the appointment was agreed with (docs/decisions/appointments.md).
import { AppError } from '../../platform/errors/app-error.ts';

export interface PartyBounds {
  party_min: number;
  party_max: number;
}

export function assertPartyFits(service: PartyBounds, partySize: number): void {
  if (partySize < service.party_min || partySize > service.party_max) {
    const range = service.party_min === service.party_max ? `${service.party_min}` : `${service.party_min} to ${service.party_max}`;
    throw new AppError('PARTY_SIZE_OUT_OF_RANGE', `party_size ${partySize} does not fit this service, which takes parties of ${range}`);
  }
}
