/* Nothing to call: the target holds ICU's data (icudata.S). SwiftPM wants a header directory. */
