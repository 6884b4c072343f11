/* ICU's data package, trimmed to what an English-speaking box reads (#34): scripts/lib/icu-data
   writes it, and the package's build (debian/rules) names it in DOSETAP_ICU_DATA and its symbol
   (icudt76_dat for ICU 76) in DOSETAP_ICU_SYMBOL. Package.swift adds this target to dosetap-box
   only then. As an object of the program itself it comes before the toolchain's
   lib_FoundationICU.a on the link line, so that archive's 34 MB copy is never pulled in.
   A section of its own, not .rodata: Swift's objects mark their .rodata writable (it holds
   relocated pointers), so lld's .rodata lands in the writable segment, whose pages boxd may not
   unmap once started (box_release_start_code); this one goes with the read-only data. */
#if defined(DOSETAP_ICU_DATA) && defined(DOSETAP_ICU_SYMBOL)
    .section .icu_data,"a",%progbits
    .globl DOSETAP_ICU_SYMBOL
    .type DOSETAP_ICU_SYMBOL, %object
    .balign 16
DOSETAP_ICU_SYMBOL:
    .incbin DOSETAP_ICU_DATA
    .size DOSETAP_ICU_SYMBOL, . - DOSETAP_ICU_SYMBOL
#endif
    .section .note.GNU-stack,"",%progbits
