/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

/** The padding after {@link WorkerHotFields}: see {@link WorkerPadBefore}. */
abstract class WorkerPadAfter extends WorkerHotFields {
    byte q000, q001, q002, q003, q004, q005, q006, q007, q010, q011, q012, q013, q014, q015, q016, q017;
    byte q020, q021, q022, q023, q024, q025, q026, q027, q030, q031, q032, q033, q034, q035, q036, q037;
    byte q040, q041, q042, q043, q044, q045, q046, q047, q050, q051, q052, q053, q054, q055, q056, q057;
    byte q060, q061, q062, q063, q064, q065, q066, q067, q070, q071, q072, q073, q074, q075, q076, q077;
    byte q100, q101, q102, q103, q104, q105, q106, q107, q110, q111, q112, q113, q114, q115, q116, q117;
    byte q120, q121, q122, q123, q124, q125, q126, q127, q130, q131, q132, q133, q134, q135, q136, q137;
    byte q140, q141, q142, q143, q144, q145, q146, q147, q150, q151, q152, q153, q154, q155, q156, q157;
    byte q160, q161, q162, q163, q164, q165, q166, q167, q170, q171, q172, q173, q174, q175, q176, q177;
}
