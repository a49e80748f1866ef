import * as listSearch from './listSearch';
import * as routeOptions from './loadOptions';
import * as standingDestinations from './standingDestinations';

export const loadOptions = { ...routeOptions, ...standingDestinations };
export { listSearch };
