// Placeholder until the PostgreSQL fixture lands; replaced by the store work.
export default function setup() {}
