/* Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0. */
/* Minimal HotSpot disassembler plug-in on Capstone (x86-64), for local profiling only. */
#include <stdint.h>
#include <stdio.h>
#include <capstone/capstone.h>

typedef void *(*event_cb)(void *, const char *, void *);
typedef int (*printf_cb)(void *, const char *, ...);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va,
                                  unsigned char *buffer, uintptr_t length,
                                  event_cb ev, void *ev_stream,
                                  printf_cb pr, void *pr_stream,
                                  const char *options, int newline) {
    csh h;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return NULL;
    const uint8_t *code = buffer;
    size_t size = length;
    uint64_t addr = start_va;
    cs_insn *insn = cs_malloc(h);
    while (addr < end_va && size > 0) {
        uint64_t at = addr;
        if (ev) ev(ev_stream, "insn", (void *)(uintptr_t)at);
        if (!cs_disasm_iter(h, &code, &size, &addr, insn)) {
            pr(pr_stream, "(bad)");
            addr = at + 1; code++; size--;
        } else {
            pr(pr_stream, "%s %s", insn->mnemonic, insn->op_str);
        }
        if (ev) ev(ev_stream, "/insn", (void *)(uintptr_t)addr);
        if (newline) pr(pr_stream, "\n");
    }
    cs_free(insn, 1);
    cs_close(&h);
    return (void *)(uintptr_t)addr;
}
