// The IANA time zones the browser knows, for the setup screens' time zone pickers (the API checks
// the name again). A zone the list lacks (an old alias stored earlier) is kept as the first option.
const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
const ALL = zones.includes('UTC') ? zones : ['UTC', ...zones];

/** [value, label] pairs for SelectField, `current` always among them. */
export const timeZoneOptions = (current) => (current && !ALL.includes(current) ? [current, ...ALL] : ALL).map((z) => [z, z.replace(/_/g, ' ')]);
