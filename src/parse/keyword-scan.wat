;; The byte keyword scan of keyword-scan.ts (Wu-Manber, blocks of two bytes) in WebAssembly, and the
;; check for control bytes of the same block (`controls`, SIMD). The scan is the same
;; skip loop as keywordFinder, with no bounds checks and one 16-bit load per step, reporting every
;; position where a keyword starts and how long the longest keyword starting there is. scripts/build-wasm.mjs turns this file into keyword-scan-wasm.ts.
;;
;; Memory, as keywordStarts (keyword-scan.ts) lays it out:
;;   [0, 65536)        shift per block: the block's two bytes b0 | b1 << 8 (0: a keyword's first m bytes may end here)
;;   [65536, 131072)   bucket per block (0: none): the keywords whose first m bytes end with that block
;;   [131072, +2048)   per bucket b at 131072 + 8b: u32 offset of its first entry, u32 number of entries
;;   entries           12 bytes each: u32 the keyword's first four bytes, u32 offset of its bytes, u32 its length
;;   then the keywords' bytes, the input and the output, where the caller says.
(module
  (memory (export "mem") 1)
  ;; Every start of a keyword wholly inside [from, to), in increasing order, from out on as two u32:
  ;; start - bias, and the length of the longest keyword starting there (the keywords of one start
  ;; share their first m bytes, so one bucket holds them all); m is the shortest keyword's length
  ;; (at least 4). Returns how many starts.
  (func (export "scan") (param $from i32) (param $to i32) (param $out i32) (param $m i32) (param $bias i32) (result i32)
    (local $pos i32) (local $h i32) (local $s i32) (local $n i32) (local $b i32)
    (local $e i32) (local $ee i32) (local $start i32) (local $head i32) (local $w i32) (local $wl i32) (local $k i32) (local $best i32)
    (local.set $pos (i32.add (local.get $from) (i32.sub (local.get $m) (i32.const 1))))
    (block $done
      (loop $top
        (br_if $done (i32.ge_u (local.get $pos) (local.get $to)))
        (local.set $h (i32.load16_u (i32.sub (local.get $pos) (i32.const 1))))
        (local.set $s (i32.load8_u (local.get $h)))
        (if (local.get $s)
          (then
            (local.set $pos (i32.add (local.get $pos) (local.get $s)))
            (br $top)))
        (local.set $b (i32.load8_u (i32.add (local.get $h) (i32.const 65536))))
        (if (local.get $b)
          (then
            (local.set $start (i32.sub (local.get $pos) (i32.sub (local.get $m) (i32.const 1))))
            (local.set $head (i32.load (local.get $start)))
            (local.set $e (i32.load (i32.add (i32.const 131072) (i32.shl (local.get $b) (i32.const 3)))))
            (local.set $ee (i32.add (local.get $e) (i32.mul (i32.const 12)
              (i32.load (i32.add (i32.const 131076) (i32.shl (local.get $b) (i32.const 3)))))))
            (block $bucket
              (loop $entries
                (br_if $bucket (i32.ge_u (local.get $e) (local.get $ee)))
                (block $next
                  (br_if $next (i32.ne (i32.load (local.get $e)) (local.get $head)))
                  (local.set $wl (i32.load (i32.add (local.get $e) (i32.const 8))))
                  (br_if $next (i32.gt_u (i32.add (local.get $start) (local.get $wl)) (local.get $to)))
                  (local.set $w (i32.load (i32.add (local.get $e) (i32.const 4))))
                  (local.set $k (i32.const 4))
                  (block $same
                    (loop $cmp
                      (br_if $same (i32.ge_u (local.get $k) (local.get $wl)))
                      (br_if $next (i32.ne (i32.load8_u (i32.add (local.get $start) (local.get $k)))
                                           (i32.load8_u (i32.add (local.get $w) (local.get $k)))))
                      (local.set $k (i32.add (local.get $k) (i32.const 1)))
                      (br $cmp)))
                  (if (i32.gt_u (local.get $wl) (local.get $best)) (then (local.set $best (local.get $wl)))))
                (local.set $e (i32.add (local.get $e) (i32.const 12)))
                (br $entries)))
            (if (local.get $best)
              (then
                (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 3)))
                           (i32.sub (local.get $start) (local.get $bias)))
                (i32.store (i32.add (local.get $out) (i32.add (i32.shl (local.get $n) (i32.const 3)) (i32.const 4)))
                           (local.get $best))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (local.set $best (i32.const 0))))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
        (br $top)))
    (local.get $n))

  ;; Whether [from, to) holds a byte that makes text look binary: C0 but \t \n \f \r ESC, and DEL
  ;; (src/ingest/control-bytes.ts, CONTROL; a test holds the two equal), 16 bytes a step.
  (func (export "controls") (param $from i32) (param $to i32) (result i32)
    (local $v v128) (local $acc v128) (local $b i32)
    (local.set $acc (v128.const i64x2 0 0))
    (block $wide
      (loop $top
        (br_if $wide (i32.gt_u (i32.add (local.get $from) (i32.const 16)) (local.get $to)))
        (local.set $v (v128.load (local.get $from)))
        (local.set $acc (v128.or (local.get $acc) (v128.or
          (v128.andnot
            (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
            (v128.or
              (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x09))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0a))))
              (v128.or
                (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0c))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x0d))))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x1b))))))
          (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x7f))))))
        (local.set $from (i32.add (local.get $from) (i32.const 16)))
        (br $top)))
    (if (v128.any_true (local.get $acc)) (then (return (i32.const 1))))
    (block $done
      (loop $tail
        (br_if $done (i32.ge_u (local.get $from) (local.get $to)))
        (local.set $b (i32.load8_u (local.get $from)))
        (if (i32.eq (local.get $b) (i32.const 0x7f)) (then (return (i32.const 1))))
        (if (i32.and
              (i32.lt_u (local.get $b) (i32.const 0x20))
              (i32.eqz (i32.or
                (i32.or (i32.eq (local.get $b) (i32.const 0x09)) (i32.eq (local.get $b) (i32.const 0x0a)))
                (i32.or (i32.or (i32.eq (local.get $b) (i32.const 0x0c)) (i32.eq (local.get $b) (i32.const 0x0d)))
                        (i32.eq (local.get $b) (i32.const 0x1b))))))
          (then (return (i32.const 1))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $tail)))
    (i32.const 0)))
