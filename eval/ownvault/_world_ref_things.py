"""reference/: components, techniques, places, vendors, health, co-op. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


# ---------------------------------------------------------------- components

add("reference/components/kettle-controller-board.md", """
---
title: Kettle controller board
aliases: [KCB, controller board, motor board]
tags: [kettle, hardware, pcb]
entities: [Kettle, Lintel PCB, BoardHaus]
updated: 2025-03-20
---
# Kettle controller board

The motor driver for [[kettle]]. Four-layer board, 62 x 48 mm, STM32G431 plus a three-phase gate driver
and six MOSFETs on a copper pour that doubles as the heatsink.

## Revisions
| rev | date | fab | notes |
|---|---|---|---|
| A | Feb 2023 | BoardHaus | worked, barely; no current sense on phase C |
| B | Feb 2024 | BoardHaus | proper shunts; copper weight wrong on first batch |
| C | Mar 2025 | Lintel | bigger pour, NTC moved next to the FETs |

Boards are made by [[lintel-pcb]] now.

## Rotor position
Hall sensors, read as in [[hall-sensor-commutation]]. We ran [sensorless](../techniques/sensorless-foc.md)
from Nov 2023 to Mar 2024 and went back: stalls on cold starts under load, i.e. a loaded cargo bike on
a hill in January.

## Heat
An NTC on the FET bank; the firmware backs the current off as it warms ([[thermal-derating]]).
""")

add("reference/components/torque-sensor-unit.md", """
---
title: Torque sensor unit
aliases: [TSU, torque sensor, the BB sensor]
tags: [kettle, hardware, sensor]
entities: [Kettle]
updated: 2025-01-29
---
# Torque sensor unit

Bottom-bracket spindle with a strain-gauge bridge, for [[kettle]]. Tells the controller how hard the
rider is pushing so assist is proportional, not an on/off lurch.

- read with [[ratiometric-sampling]]; the bridge and the ADC share a reference
- output is noisy below 5 Nm; firmware ignores anything under that

## Calibration
1. bike on the stand, cranks horizontal, no load: record zero counts
2. hang the 10 kg weight from the forward pedal spindle, record counts
3. swap sides, repeat; average the two
4. write both numbers into the board with `cal tsu <zero> <span>` over the debug console

Redo after any bearing change. Takes ten minutes if the weight hasn't walked off again.
""")

add("reference/components/battery-pack.md", """
---
title: Battery pack
aliases: [the brick, pack, Kettle battery]
tags: [kettle, hardware, battery]
entities: [Kettle]
updated: 2025-08-19
---
# Battery pack

The pack for [[kettle]]: 13S4P, 52 cells of 21700, 48 V nominal, about 18 Ah. Spot-welded nickel,
a BMS board we didn't design, in a folded aluminium case that is too heavy and will stay too heavy.

- charge from the co-op's 54.6 V chargers only
- state of charge from [[coulomb-counting]], not voltage
- BMS raises `BMS_CELL_UNDERVOLT` if any cell group drops under 2.9 V; the controller cuts assist

Rebuildable on the bench: one bad cell group is a one-hour job, not a new pack. That is the point.
""")

add("reference/components/kettle-firmware.md", """
---
title: Kettle firmware
aliases: [kettle-fw, the firmware]
tags: [kettle, firmware]
entities: [Kettle, Fenna de Vries]
updated: 2025-10-17
---
# Kettle firmware

C, bare metal, about 9k lines. Fen owns it; repo `kettle-fw`. Current release: v1.1.0 (2025-10-17).
Flashing: [[swd-flashing]].

## Config that matters
`config/kettle.cfg`, baked in at build time:
```ini
CURRENT_LIMIT_A = 15     ; phase current cap, lowered after the July 2024 cook-off
ASSIST_RAMP_MS = 400     ; time to full assist; the bakery riders asked for gentler
TSU_DEADBAND_NM = 5
```

## Faults
| code | meaning | what to do |
|---|---|---|
| `E_PHASE_B_OC` | overcurrent on phase B | check motor lead B, then the FET |
| `BMS_CELL_UNDERVOLT` | a cell group below 2.9 V | charge; if it repeats, test the groups |
| `E_HALL_SEQ` | impossible hall state | connector, nine times in ten |
| `E_TSU_RANGE` | torque reading out of range | recalibrate |

## Safety
A hardware watchdog resets the chip if the main loop stalls: [[watchdog-recovery]].
Current backs off with temperature: [[thermal-derating]].
""")

add("reference/components/booking-queue.md", """
---
title: Booking queue
aliases: [the queue, slots]
tags: [tally, software]
entities: [Tally]
updated: 2025-07-15
---
# Booking queue

The heart of [[tally]]: repair slots, and which bike is on which stand.

- default slot length: 60 minutes (since July 2025)
- a booking is claimed by `reserve_slot()`, which uses [[optimistic-locking]] on the `version` column
- TAL-117 (Aug 2023): two volunteers booked the same slot from two tablets; fixed by the above

## Statuses
`booked` -> `in` -> `on_rack` -> `ready` -> `collected`

`on_rack` means on the rack waiting for parts. After 14 days on the rack the owner gets an automatic
"still waiting, sorry" text and the bike shows red on the board.
""")

add("reference/components/sms-reminders.md", """
---
title: SMS reminders
aliases: [texts, bike-ready texts]
tags: [tally, software, sms]
entities: [Tally, Pingpost]
updated: 2025-05-06
---
# SMS reminders

[[tally]] sends three texts: booking confirmation, "ready to collect", and the 14-day on-the-rack
apology. Provider: Pingpost since May 2025 ([[pingpost]]).

- delivery receipts arrive on a webhook; we check the `X-Pingpost-Signature` header (HMAC-SHA256 of
  the body with the shared secret) and drop anything that doesn't match
- failed sends are retried as in [[exponential-backoff]]
- no texts 21:00-08:00; they queue

Template, ready text:
> Hi {first}, your bike is ready at Ratchet Street. We're open till {close}. - the co-op
""")

add("reference/components/parts-sync.md", """
---
title: Parts sync
aliases: [stock sync]
tags: [tally, software, stock]
entities: [Tally, Northgate Cycle Supply]
updated: 2024-06-10
---
# Parts sync

Nightly job in [[tally]] that pulls the wholesaler's stock and price list (a 40 MB CSV from Northgate)
and updates our parts table.

- runs 02:30
- conditional download: see [[etag-polling]]; most nights it downloads nothing
- written on branch `feat/etag-sync`, merged June 2024
- price changes over 15% get flagged for Jo instead of applied
""")

add("reference/components/tally-server.md", """
---
title: Tally server
aliases: [the box, tally host]
tags: [tally, software, hosting]
entities: [Tally, Brinkhost]
updated: 2025-07-15
---
# Tally server

Where [[tally]] runs. A small VPS at Brinkhost (since Jan 2025), 2 vCPU, 4 GB.

- app container `tally:2025.07.1`, behind Caddy
- background jobs (texts, parts sync) in `tally-worker.service` under systemd
- config by env: `TALLY_SLOT_MINUTES=60`, `TALLY_QUIET_START=21`, `TALLY_QUIET_END=8`
- database: one SQLite file in [[sqlite-wal]] mode; nightly copy to the shared drive

Restart: `systemctl restart tally-web tally-worker.service`. Logs: `journalctl -u tally-worker`.
""")

# ---------------------------------------------------------------- techniques

add("reference/techniques/hall-sensor-commutation.md", """
---
title: Hall sensor commutation
aliases: [six-step, trapezoidal commutation]
tags: [technique, motor-control]
entities: []
updated: 2024-03-05
---
# Hall sensor commutation

Three hall-effect sensors sit 120 electrical degrees apart inside the motor. Together they give one of
six valid states; each state says which pair of phases to energise next.

- a six-entry lookup table maps state -> (high phase, low phase)
- states 0b000 and 0b111 are impossible; seeing one means a broken wire
- works from standstill, which is the whole attraction: no guessing at zero speed
- we add a small electrical-angle trim per motor, measured once on the bench

Cheap, robust, a bit noisy at low speed (torque ripple). Fine for pedal assist.
""")

add("reference/techniques/sensorless-foc.md", """
---
title: Sensorless FOC
aliases: [FOC, field-oriented control, observer]
tags: [technique, motor-control]
entities: []
updated: 2024-03-05
---
# Sensorless FOC

Field-oriented control with rotor angle estimated from back-EMF by an observer, no position sensors.
Smooth and quiet once moving.

The catch: at zero speed there is no back-EMF, so the motor is started open-loop and the observer
"catches" it. Under heavy load from standstill the catch fails and the motor judders or stalls. Worse
in the cold (winding resistance changes).
""")

add("reference/techniques/thermal-derating.md", """
---
title: Thermal derating
aliases: [derate]
tags: [technique, firmware, safety]
entities: []
updated: 2024-07-09
---
# Thermal derating

Reduce the allowed motor current as the power stage heats, rather than cutting out.

```c
float thermal_derate(float fet_temp_c, float limit_a) {
    if (fet_temp_c < 80.0f)  return limit_a;
    if (fet_temp_c > 105.0f) return 0.0f;
    return limit_a * (105.0f - fet_temp_c) / 25.0f;   /* linear from 80 to 105 */
}
```

Rider feels assist fade on a long climb, not a sudden stop mid-junction.
""")

add("reference/techniques/ratiometric-sampling.md", """
---
title: Ratiometric sampling
aliases: [ratiometric ADC]
tags: [technique, sensors, adc]
entities: []
updated: 2025-01-29
---
# Ratiometric sampling

Power the strain-gauge bridge from the same rail that the ADC uses as its reference. The bridge output
scales with that rail, and so does the ADC's idea of full scale, so a sagging supply cancels out.

- average 16 conversions per reading
- sample at the quiet point of the PWM cycle, away from switching edges
""")

add("reference/techniques/coulomb-counting.md", """
---
title: Coulomb counting
aliases: [charge counting]
tags: [technique, battery]
entities: []
updated: 2025-08-19
---
# Coulomb counting

Integrate the current through a shunt over time to know how many amp-hours have gone in or out.

- reset to 100% when the charger terminates
- after 30 minutes at rest, nudge the estimate towards the open-circuit voltage table
- drift is about 1% a day; the rest correction hides it
""")

add("reference/techniques/watchdog-recovery.md", """
---
title: Watchdog recovery
aliases: [IWDG, watchdog]
tags: [technique, firmware, safety]
entities: []
updated: 2025-10-21
---
# Watchdog recovery

An independent hardware watchdog must be fed every 200 ms by the main loop. If the loop stalls, the
chip resets.

On the way back up:
1. read the reset-cause register; if it was the watchdog, log it with the last program counter, e.g.
   `watchdog reset at 0x0800_4C1A`
2. start with assist off for 2 s
3. ramp back up as normal

The rider feels a two-second lull, not a lock-up.
""")

add("reference/techniques/optimistic-locking.md", """
---
title: Optimistic locking
aliases: [version column]
tags: [technique, database]
entities: []
updated: 2023-08-15
---
# Optimistic locking

Every row has a `version` integer. Read the row and remember its version; write with
`UPDATE ... SET ..., version = version + 1 WHERE id = ? AND version = ?`.

If zero rows changed, someone else got there first: reload and tell the person, don't overwrite.
No locks held while a human dithers over a form.
""")

add("reference/techniques/exponential-backoff.md", """
---
title: Exponential backoff
aliases: [retry backoff]
tags: [technique, networking]
entities: []
updated: 2025-05-06
---
# Exponential backoff

After a failed send, wait 30 s, then 60, 120, 240, 480, each with up to 20% random jitter. After five
failures stop and put the message on the dashboard as failed for a human to look at.

Jitter matters: without it every queued message retries at the same instant and gets throttled again.
""")

add("reference/techniques/etag-polling.md", """
---
title: ETag polling
aliases: [conditional GET, If-None-Match]
tags: [technique, http]
entities: []
updated: 2024-06-10
---
# ETag polling

Keep the `ETag` header from the last download. Next time send it back as `If-None-Match`. The server
answers `304 Not Modified` with an empty body if nothing changed.

Saves bandwidth and time when a large file rarely changes. Fall back to a full fetch if the server
starts returning no ETag at all.
""")

add("reference/techniques/sqlite-wal.md", """
---
title: SQLite WAL mode
aliases: [WAL, write-ahead log]
tags: [technique, database]
entities: []
updated: 2024-04-16
---
# SQLite WAL mode

`PRAGMA journal_mode=WAL;` once, and it sticks. Writers append to a separate log; readers keep reading
the last committed state. Readers never block the writer and the writer never blocks readers.

Before this we were in the default rollback journal and got `database is locked` whenever the nightly
job wrote while someone on the tablet was reading.

- checkpoint runs automatically at 1000 pages
- back up with the `.backup` command, not by copying the file
""")

add("reference/techniques/spoke-tension-mapping.md", """
---
title: Spoke tension mapping
aliases: [tension map]
tags: [technique, wheels, workshop]
entities: []
updated: 2024-02-07
---
# Spoke tension mapping

Measure every spoke with the tensiometer, write the readings round a circle on the card, one card per
side. Work out the mean per side.

- anything more than 10% off its side's mean gets corrected first, worst first
- correct in quarter turns, then re-true; tension and true fight each other
- a wheel is done when every spoke is within 10% and lateral runout is under 0.5 mm

Cards go in the wheel's bag so the owner can see the work.
""")

add("reference/techniques/sweep-rider-protocol.md", """
---
title: Sweep rider protocol
aliases: [sweep, lanterne rouge]
tags: [technique, events, safety]
entities: []
updated: 2025-06-10
---
# Sweep rider protocol

The sweep is the last rider on the course, always.

- never passes a participant; if someone stops, the sweep stops
- carries tubes, a pump, the big first-aid kit and a radio on channel 3
- marshals leave their posts only after the sweep has passed them
- at the finish the sweep reports "course clear" to the head marshal; until then the event isn't over

Two sweeps on rides over 100 people, riding 200 m apart.
""")

add("reference/techniques/swd-flashing.md", """
---
title: SWD flashing
aliases: [flashing, programming the boards]
tags: [technique, firmware]
entities: []
updated: 2025-03-20
---
# SWD flashing

Programming the motor boards through the 4-pin debug header with an ST-Link.

```
make flash BOARD=revc
make verify BOARD=revc
./tools/write_serial.py --next
```

- power the board from the bench supply at 48 V, current limit 0.5 A, before connecting the probe
- write the serial number last; it goes into one-time-programmable memory, so check it twice
""")

add("reference/techniques/cold-water-acclimatisation.md", """
---
title: Cold water acclimatisation
aliases: [cold water rules]
tags: [technique, swimming, safety]
entities: []
updated: 2024-10-01
---
# Cold water acclimatisation

- minutes in the water should not exceed the water temperature in degrees C; fewer if it's windy
- below 12 degrees: boots and gloves
- get out before you feel warm; feeling warm is the warning sign
- warm up slowly afterwards: layers and a hot drink, not a hot shower straight away
- never alone, bright hat always
""")

# ---------------------------------------------------------------- places

add("reference/places/ratchet-street-workshop.md", """
---
title: Ratchet Street workshop
aliases: [RSBC, the co-op, Ratchet Street, the workshop]
tags: [place, coop]
entities: [Ratchet Street Bike Co-op]
updated: 2025-02-10
---
# Ratchet Street workshop

14 Ratchet Street, Port Calder. The Ratchet Street Bike Co-op's main workshop since 2017: four stands,
a tool library, the kids' bike library upstairs.

- phone: 01632 960187 (the new line, from Aug 2024)
- hours: [[opening-hours]]; doors and alarm: [[door-and-keys]]
- bay 2 has the lift, [[big-ed]]
- second site: [[the-annex]]
- members and fees: [[membership]]; volunteers: [[volunteer-rota]]

Parking: none. Deliveries via the lane at the back, ring the bell twice.
""")

add("reference/places/the-annex.md", """
---
title: The Annex
aliases: [the Annex, Fish Market unit, unit 4]
tags: [place, coop, kettle]
entities: [Old Fish Market]
updated: 2025-01-27
---
# Unit 4, Old Fish Market

The co-op's second space, rented since 2023. Cold, bright, smells faintly of the old trade.

- the electronics bench (Kettle work), the cargo bike bays, the battery cabinet
- rent 410 pounds a month from the Jan 2025 renewal, three-year lease
- key from the market office if the lockbox is jammed (it will be)
""")

add("reference/places/shingle-cove.md", """
---
title: Shingle Cove
aliases: [the cove]
tags: [place, swimming]
entities: [Shingle Cove]
updated: 2024-10-01
---
# Shingle Cove

Steep shingle beach east of the harbour wall. Changing under the sea wall steps, no facilities.

- no swimming two hours either side of low water on spring tides: rip off the end of the groyne
- entry at the steps; the shingle shelves fast, you're out of your depth in five strides
- how long to stay in: [[cold-water-acclimatisation]]
""")

add("reference/places/fenwick-lane.md", """
---
title: 7 Fenwick Lane
aliases: [the house, Fenwick Lane]
tags: [place, household]
entities: [Fenwick Lane]
updated: 2025-01-20
---
# 7 Fenwick Lane

Home since 20 September 2024. 1930s semi, three bedrooms, garden going down to the old railway path.

- planning application PA/2024/0388 (rear extension, single storey): approved Jan 2025; not started
- boiler: combi, serviced each October; the reset button is behind the flap, not the dial
- bins: general Tuesday, recycling alternate Tuesdays, garden waste Fridays in summer
- stopcock under the stairs, behind the hoover
""")

add("reference/places/gull-terrace.md", """
---
title: Gull Terrace flat
aliases: [the flat, the old flat]
tags: [place, household, archive]
entities: [Gull Terrace]
updated: 2024-09-27
---
# Gull Terrace flat

Flat 3, 11 Gull Terrace. Rented, 2013-2024. Top floor, no lift, view of the harbour if you leaned.
Keys handed back 27 Sept 2024; deposit returned in full after a fight about a scuffed skirting board.
""")

add("reference/places/lower-tarn.md", """
---
title: Lower Tarn
aliases: [Tarn]
tags: [place, family]
entities: [Lower Tarn]
updated: 2025-10-09
---
# Lower Tarn

Village forty minutes inland from Port Calder. One shop, one pub (the Heron), a church with no vicar.

- bus: the 62 from Port Calder bus station, hourly; last one back 18:40, none on Sundays
- Tarn Pharmacy on the green: blister packs; closes 13:00 on Saturdays
- GP: Tarn Valley Practice, 01632 960488
- taxi: Benny's, 01632 960499, cash only
""")

add("reference/places/saltings-primary.md", """
---
title: Saltings Primary School
aliases: [Saltings, the school]
tags: [place, school]
entities: [Saltings Primary School]
updated: 2025-09-02
---
# Saltings Primary School

Two streets from Fenwick Lane. Head teacher Ms Varga.

- gates open 08:40, school day 08:50 to 15:20; Fridays finish at 14:00 (staff training)
- office 01632 960510; absence line option 1 before 09:00
- PE kit Wednesdays; library books back on Tuesdays
- the after-school club stops taking bookings on Thursday noon for the next week
""")

add("reference/places/marine-station.md", """
---
title: Port Calder Marine Station
aliases: [the Station, Marine Station]
tags: [place, work]
entities: [Port Calder Marine Station]
updated: 2025-06-30
---
# Port Calder Marine Station

On the north pier. Runs the tide gauges, a wave buoy, the harbour's weather station and a small lab.

- open day: first Saturday in July, 10:00-16:00, kids can drive the ROV in the tank
- gate code changes monthly; reception gives it out
- staff parking only; visitors use the pier car park
""")

add("reference/places/calder-headland.md", """
---
title: Calder Headland
aliases: [the headland]
tags: [place, route]
entities: [Calder Headland]
updated: 2024-06-01
---
# Calder Headland

The lump of heath north of town. Single-track lane to the coastguard lookout.

- climb: 1.8 km at about 7%, steeper on the last bend
- cattle grid just past the lookout; slippery when wet, walk it
- farm traffic on weekday mornings; weekends mostly walkers
- the view is the reason anyone does it
""")

add("reference/places/big-ed.md", """
---
title: Big Ed
aliases: [Big Ed, the lift, bay 2 lift]
tags: [equipment, workshop]
entities: []
updated: 2025-04-22
---
# The hydraulic workstand

Floor-mounted hydraulic workstand in bay 2, donated in 2021 by Ed Marlow when he closed his shop.

- safe working load 60 kg; cargo bikes with the box on are over that, take the box off
- hydraulic oil and seals serviced every six months
- the foot pedal sticks when cold; two gentle pumps, not one angry one
""")

add("reference/people/dawn-dippers.md", """
---
title: Dawn Dippers
aliases: [the Dippers]
tags: [group, swimming]
entities: [Dawn Dippers, Shingle Cove]
updated: 2025-05-27
---
# Dawn Dippers

The sea-swimming group Jo swims with. Weekdays at 07:00 at [[shingle-cove]], year round for the keen,
April to October for Jo. WhatsApp group, about thirty people, ten on a good day.

Midwinter swim is the Sunday nearest the solstice, with soup after.
""")

# ---------------------------------------------------------------- vendors

add("reference/vendors/velotrade.md", """
---
title: Velotrade
aliases: []
tags: [vendor, parts, former]
entities: [Velotrade, Ruben Castellanos]
updated: 2024-05-17
---
# Velotrade

Parts wholesaler, 2017 to May 2024. Rep: [[ruben-castellanos]]. Broad range, good prices, deliveries
that slipped from next-day to "next week, probably" through early 2024. We moved to Northgate in May
2024 (see [[northgate-cycle-supply]]). Account closed, credit balance refunded.
""")

add("reference/vendors/northgate-cycle-supply.md", """
---
title: Northgate Cycle Supply
aliases: [NCS, Northgate]
tags: [vendor, parts]
entities: [Northgate Cycle Supply]
updated: 2025-06-30
---
# Northgate Cycle Supply

Our parts wholesaler since May 2024.

- order by 14:00 for next-day delivery; deliveries come Tuesday and Friday only for our postcode
- rep: Dele Obi, 07700 900815
- stock feed for [[parts-sync]]: CSV, updated most nights
- trade account 30-day terms; statements on the 1st
- returns need an RA number from the portal before anything goes back
""")

add("reference/vendors/boardhaus.md", """
---
title: BoardHaus
aliases: []
tags: [vendor, pcb, former]
entities: [BoardHaus]
updated: 2025-03-18
---
# BoardHaus

PCB fab for controller rev A and rev B. Fine for rev A. Rev B's first batch came with 1 oz copper
instead of the 2 oz we ordered; invoice INV-88213 was disputed and eventually credited at 50%.
Not used since rev C went to Lintel.
""")

add("reference/vendors/lintel-pcb.md", """
---
title: Lintel PCB
aliases: [Lintel]
tags: [vendor, pcb]
entities: [Lintel PCB]
updated: 2025-03-20
---
# Lintel PCB

Board fab and assembly, used for rev C onward. Ten working days standard, five for a fee.
Contact: Odile at the sales desk. Quotes in 24 h; they actually read the fab notes.
""")

add("reference/vendors/textloom.md", """
---
title: TextLoom
aliases: []
tags: [vendor, sms, former]
entities: [TextLoom]
updated: 2025-05-06
---
# TextLoom

SMS provider for Tally's texts from launch (May 2023) until May 2025. Doubled their per-message price
in April 2025 and started throttling bursts. Replaced by Pingpost. Account closed 2025-05-31.
""")

add("reference/vendors/pingpost.md", """
---
title: Pingpost
aliases: []
tags: [vendor, sms]
entities: [Pingpost]
updated: 2025-05-06
---
# Pingpost

SMS provider since May 2025. 3.1p a message, UK numbers only, webhooks for delivery receipts.
Sender ID "RSBC". Billing goes to the co-op card; Hollis gets the monthly statement.
""")

add("reference/vendors/linnet-vets.md", """
---
title: Linnet Vets
aliases: [Linnet]
tags: [vendor, vet]
entities: [Linnet Veterinary Practice]
updated: 2025-06-30
---
# Linnet Veterinary Practice

Small practice on Linnet Road, ten minutes' walk from Fenwick Lane.

- appointments 01632 960820
- out of hours: 01632 960811 (they share a night service with two other practices)
- open Mon-Fri 08:30-18:30, Sat 09:00-12:00
- the receptionist keeps a jar of fish treats for the nervous ones
""")

add("reference/vendors/crane-and-daughters.md", """
---
title: Crane & Daughters
aliases: [the builders, Cranes]
tags: [vendor, builders, household]
entities: [Crane & Daughters]
updated: 2024-11-30
---
# Crane & Daughters

Builders. Wynn Crane and her two daughters. Did the kitchen and the damp at the new house, Oct-Nov 2024,
on time, which nobody believed. Quoting for the rear extension.

- 07700 900906 (Wynn)
- they want a week's notice and the drive clear
""")

# ---------------------------------------------------------------- health

add("reference/health/thyroid.md", """
---
title: Thyroid
aliases: [hypothyroidism, underactive thyroid]
tags: [health, jo]
entities: [Jo Ferreira, Dr Sato]
updated: 2025-04-22
---
# Thyroid

Underactive thyroid, diagnosed Sept 2023.

- levothyroxine 75 mcg, every morning (the dose since March 2024)
- take it on waking with water; nothing else for 30-60 minutes: no coffee, no breakfast
- iron or calcium supplements at least 4 hours apart from it
- blood test (TSH) every six months; reviewed by Dr Sato at [[larchfield-surgery]]

Last review April 2025: "stable, carry on".
""")

add("reference/health/pai-medication.md", """
---
title: Medication list (Aurelio)
aliases: [Pai's meds]
tags: [health, family]
entities: [Aurelio Ferreira, Tarn Pharmacy]
updated: 2025-10-17
---
# Medication list: Aurelio Ferreira

Kept with his agreement. Blister packs from Tarn Pharmacy, delivered Thursdays.

| medicine | dose | when |
|---|---|---|
| furosemide | 40 mg | morning (raised from the lower dose in Oct 2025) |
| bisoprolol | 2.5 mg | morning |
| ramipril | 5 mg | evening |
| apixaban | 5 mg | morning and evening |

Weigh every morning; more than 2 kg up in three days, ring the heart failure nurse (01632 960492).
""")

add("reference/health/larchfield-surgery.md", """
---
title: Larchfield Surgery
aliases: [Larchfield]
tags: [health, place]
entities: [Larchfield Surgery]
updated: 2024-10-14
---
# Larchfield Surgery

GP practice on Larchfield Road.

- 01632 960903; lines open 08:00, on-the-day appointments gone by 08:20
- Mon-Fri 08:00-18:30; one late clinic Tuesday till 20:00
- repeat prescriptions through the app, allow 48 hours, collect from the chemist next door
- blood tests: mornings only, book at reception
""")

add("reference/health/knee-rehab.md", """
---
title: Knee rehab
aliases: [knee, physio]
tags: [health, jo]
entities: [Harbour Physio]
updated: 2025-06-30
---
# Knee rehab

Left knee, patellar tendinopathy. Seen at Harbour Physio by Nadia from May 2025.

- Spanish squats, 5 x 45 s holds, daily
- slow step-downs off the bottom stair, 3 x 15
- no deep kneeling on the workshop floor: use the foam pad
- load is fine if pain stays under 3/10 and is gone by next morning
""")

# ---------------------------------------------------------------- co-op

add("reference/coop/opening-hours.md", """
---
title: Opening hours
aliases: [hours]
tags: [coop]
entities: [Ratchet Street Bike Co-op]
updated: 2025-02-10
---
# Opening hours

Ratchet Street, from 10 February 2025:

| day | hours |
|---|---|
| Tue-Sat | 09:30-17:30 |
| Wed evening | volunteer session 18:00-20:30 |
| Sun, Mon | closed |

Closed bank holidays and the week between Christmas and New Year. The Annex is by arrangement.
""")

add("reference/coop/membership.md", """
---
title: Membership
aliases: [members, fees]
tags: [coop, finance]
entities: [Ratchet Street Bike Co-op]
updated: 2025-03-08
---
# Membership

- full: 36 pounds a year (set at the March 2025 AGM)
- concession: 12 pounds
- members get 10% off parts, the tool library and a vote at the AGM
- renewals due on the anniversary of joining; Tally sends a reminder a month before
""")

add("reference/coop/volunteer-rota.md", """
---
title: Volunteer rota
aliases: [rota]
tags: [coop, volunteers]
entities: [Imogen Price]
updated: 2025-09-16
---
# Volunteer rota

Coordinated by Imogen Price since April 2025 ([[imogen-price]]). New volunteers start with
[[volunteer-induction]].

- sessions: Saturday 10:00-13:00 (kids' bikes), Wednesday 18:00-20:30 (the Wednesday crowd)
- sign up in Tally; swaps are fine, just swap in Tally not in the chat
- two no-shows without a message and Imogen has a friendly word
- winter: Wednesday sessions move to the Annex Nov-Feb (heating)
""")

add("reference/coop/volunteer-induction.md", """
---
title: Volunteer induction
aliases: [induction]
tags: [coop, volunteers, safety]
entities: []
updated: 2024-02-07
---
# Volunteer induction

Every new volunteer, before they touch a customer's bike:

1. safety walk: fire exits, first-aid box (by the sink), the eyewash
2. stands: how to clamp a seatpost, never a carbon top tube
3. torque wrench basics; the chart on the wall is the law
4. brakes rule: no bike leaves with brakes nobody has checked
5. shadow two sessions, then a solo session with a mechanic nearby
6. sign the volunteer agreement; get added to the rota

Takes about an hour. Tea is part of it.
""")

add("reference/coop/purchase-orders.md", """
---
title: Purchase orders
aliases: [POs, ordering]
tags: [coop, finance, process]
entities: [Northgate Cycle Supply]
updated: 2024-06-01
---
# Purchase orders

How parts get ordered.

1. anyone can add a line to the "to order" list in Tally
2. Jo (or I, as a draft) turns the list into a PO, numbered PO-YY-MMDD
3. under 250 pounds: Jo approves. Over: the treasurer approves too
4. send to Northgate by 14:00 for next-day
5. when the delivery lands, tick it off against the PO and file the invoice in the accounts folder

One PO a day at most; a second order the same day gets added to the first.
""")

add("reference/coop/month-end-close.md", """
---
title: Month-end close
aliases: [month end]
tags: [coop, finance, process]
entities: []
updated: 2025-04-05
---
# Month-end close

By the 5th of each month:

- reconcile the till and card takings against the bank feed
- compare the stock count in the app with the month's wholesaler invoices; explain any gap over 50 pounds
- check every PO has an invoice and every invoice a PO
- one-page summary to the committee: takings, costs, cash, anything odd
""")

add("reference/coop/door-and-keys.md", """
---
title: Doors and keys
aliases: [door code, alarm]
tags: [coop, security]
entities: [Ratchet Street Bike Co-op]
updated: 2024-12-09
---
# Doors and keys

- front door keypad: 2093 (changed 9 Dec 2024 after someone tried the back door)
- alarm: set on leaving, panel left of the door, 30 s to get out
- keyholders: Jo, Oz, Imogen, Hollis
- wifi: `RSBC-Workshop-5G` for staff; `RSBC-Guest` for customers, password on the board
""")

add("reference/coop/insurance.md", """
---
title: Insurance
aliases: [cover]
tags: [coop, finance]
entities: [Ratchet Street Bike Co-op, Cairn Mutual]
updated: 2025-01-20
---
# Insurance

Ratchet Street Bike Co-op public and product liability plus contents: Cairn Mutual, from January 2025.
Policy CRN-7731-HX. Renews 1 January. Covers volunteers working under supervision, and the Harbour Loop
as a named event (must be notified by 1 May each year).
""")
