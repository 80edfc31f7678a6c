// Shapes the screens pass around, all derived from the generated client (nothing written by hand).
import type { Ok } from '../../client/index.ts';

export type DiaryResponse = Ok<'/api/v1/bookings/diary', 'get'>;
export type DiaryUnit = DiaryResponse['units'][number];
export type DiaryAppointment = DiaryUnit['appointments'][number];
export type Service = Ok<'/api/v1/bookings/services', 'get'>['services'][number];
export type QueueResponse = Ok<'/api/v1/bookings/queue', 'get'>;
export type QueueEntry = QueueResponse['entries'][number];
export type Unit = Ok<'/api/v1/bookings/units', 'get'>['units'][number];
export type RosterRow = Ok<'/api/v1/customers/list', 'get'>['customers'][number];
export type SearchRow = Ok<'/api/v1/customers/search', 'get'>['customers'][number];
export type ServicePeriod = Ok<'/api/v1/bookings/service-periods', 'get'>['periods'][number];
