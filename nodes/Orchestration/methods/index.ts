import * as routeOptions from './loadOptions';
import * as standingDestinations from './standingDestinations';

export const loadOptions = { ...routeOptions, ...standingDestinations };
