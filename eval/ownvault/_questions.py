"""The questions. Hand-written for memsearch, CC0. Checked against the vault by build_queries.py.

Optional helper fields (not all written out): `answer` (a string in every gold file), `anchors`
({path: string}) to place gold_lines when no single string fits every gold file.
"""

NOW = "2025-11-17T12:00:00"

R = "reference/"
J = "journal/"
L = "aster/ledger/"

Q: list[dict] = []


def q(**kw) -> None:
    Q.append(kw)


# ============================================================ exact
q(id="ex-01", cls="exact", query="What does E_PHASE_B_OC mean and when did we first hit it?", key="E_PHASE_B_OC",
  gold=[R + "components/kettle-firmware.md", J + "2024-02-20.md"], note="fault table and first power-up of rev B")
q(id="ex-02", cls="exact", query="What was TAL-117 about?", key="TAL-117",
  gold=[R + "components/booking-queue.md", J + "2023-08-15.md"], note="the double-booking bug")
q(id="ex-03", cls="exact", query="What was on PO-24-0517 and how much was it?", key="PO-24-0517",
  gold=[J + "2024-05-17.md"], note="first Northgate order, 612 pounds")
q(id="ex-04", cls="exact", query="What happened with invoice INV-88213?", key="INV-88213",
  gold=[R + "vendors/boardhaus.md", J + "2024-02-20.md"], note="disputed over copper weight, credited 50%")
q(id="ex-05", cls="exact", query="what did commit a4c91e7 do", key="a4c91e7",
  gold=[J + "2024-03-05.md"], note="revert to hall-sensor commutation")
q(id="ex-06", cls="exact", query="How does reserve_slot() stop double bookings?", key="reserve_slot",
  gold=[R + "components/booking-queue.md"], note="optimistic locking on the version column")
q(id="ex-07", cls="exact", query="When did kcb_revc.kicad_pcb go off to the fab?", key="kcb_revc.kicad_pcb",
  gold=[J + "2025-03-18.md"], note="sent to Lintel 2025-03-18")
q(id="ex-08", cls="exact", query="Where did we keep getting 'database is locked'?", key="database is locked",
  gold=[R + "techniques/sqlite-wal.md", "archive/tally-postgres-plan.md"], note="rollback journal before WAL")
q(id="ex-09", cls="exact", query="ERR_THROTTLED in the worker log - what was that?", key="ERR_THROTTLED",
  gold=[J + "2025-05-06.md"], note="TextLoom throttling the ready texts")
q(id="ex-10", cls="exact", query="How is X-Pingpost-Signature checked on the webhook?", key="X-Pingpost-Signature",
  gold=[R + "components/sms-reminders.md"], note="HMAC-SHA256 of the body")
q(id="ex-11", cls="exact", query="What did survey SRV/0913/OR say?", key="SRV/0913/OR",
  gold=["archive/house-hunt-2024.md"], note="Orchard Rise survey: subsidence")
q(id="ex-12", cls="exact", query="What raises BMS_CELL_UNDERVOLT?", key="BMS_CELL_UNDERVOLT",
  gold=[R + "components/battery-pack.md", R + "components/kettle-firmware.md"], note="a cell group under 2.9 V")
q(id="ex-13", cls="exact", query="what does thermal_derate() return between 80 and 105 degrees", key="thermal_derate",
  gold=[R + "techniques/thermal-derating.md", J + "2024-07-09.md"], note="linear taper")
q(id="ex-14", cls="exact", query="Where is TALLY_SLOT_MINUTES set?", key="TALLY_SLOT_MINUTES",
  gold=[R + "components/tally-server.md", J + "2025-07-15.md"], note="env var on the server")
q(id="ex-15", cls="exact", query="What is planning application PA/2024/0388 for?", key="PA/2024/0388",
  gold=[R + "places/fenwick-lane.md"], note="rear extension, approved Jan 2025")
q(id="ex-16", cls="exact", query="Which insurer is policy CRN-7731-HX with?", key="CRN-7731-HX",
  gold=[R + "coop/insurance.md"], note="Cairn Mutual")
q(id="ex-17", cls="exact", query="When was feat/etag-sync merged?", key="feat/etag-sync",
  gold=[R + "components/parts-sync.md"], note="June 2024")
q(id="ex-18", cls="exact", query="Where's harbour_loop_55k_v3.gpx kept?", key="harbour_loop_55k_v3.gpx",
  gold=[R + "projects/harbour-loop.md"], note="shared drive")
q(id="ex-19", cls="exact", query="how do I restart tally-worker.service", key="tally-worker.service",
  gold=[R + "components/tally-server.md"], note="systemctl restart")
q(id="ex-20", cls="exact", query="Who is RSBC-Workshop-5G for?", key="RSBC-Workshop-5G",
  gold=[R + "coop/door-and-keys.md"], note="staff wifi")
q(id="ex-21", cls="exact", query="Whose number is 07700 900562?", key="07700 900562",
  gold=[R + "people/osei-mensah.md"], note="Oz's mobile")
q(id="ex-22", cls="exact", query="What happened to CB-03 on Quay Street?", key="CB-03",
  gold=[J + "2025-10-21.md"], note="assist drop-out, watchdog reset")
q(id="ex-23", cls="exact", query="Where did parcel NCS-DEL-55120 get to?", key="NCS-DEL-55120",
  gold=[J + "2025-10-28.md"], note="stuck at depot, van broke down")
q(id="ex-24", cls="exact", query="what caused 'watchdog reset at 0x0800_4C1A'", key="0x0800_4C1A",
  gold=[R + "techniques/watchdog-recovery.md", J + "2025-10-21.md"], note="torque-filter divide stall")
q(id="ex-25", cls="exact", query="When did image tally:2025.07.1 go out and why?", key="tally:2025.07.1",
  gold=[R + "components/tally-server.md", J + "2025-07-15.md"], note="label change, July 2025")

# ============================================================ paraphrase
q(id="pa-01", cls="paraphrase", query="Why did we walk away from buying the first place we picked?",
  gold=[J + "2024-06-24.md", "archive/house-hunt-2024.md"], note="Orchard Rise survey: subsidence",
  anchors={J + "2024-06-24.md": "subsidence", "archive/house-hunt-2024.md": "subsidence"})
q(id="pa-02", cls="paraphrase", query="How long must I hold off caffeine after swallowing my daily pill?",
  gold=[R + "health/thyroid.md"], answer="30-60 minutes", note="thyroid tablet rule")
q(id="pa-03", cls="paraphrase", query="Which exercises did the physiotherapist give me for my sore leg?",
  gold=[R + "health/knee-rehab.md"], answer="Spanish squats", note="knee rehab")
q(id="pa-04", cls="paraphrase", query="What do newcomers have to go through before they're allowed to work on members' cycles?",
  gold=[R + "coop/volunteer-induction.md"], answer="safety walk", note="volunteer induction")
q(id="pa-05", cls="paraphrase", query="Who brings up the rear on the annual sponsored cycle, and what kit do they take?",
  gold=[R + "techniques/sweep-rider-protocol.md"], answer="radio on channel 3", note="sweep rider")
q(id="pa-06", cls="paraphrase", query="How long is it sensible to stay in the sea when it's chilly?",
  gold=[R + "techniques/cold-water-acclimatisation.md"], answer="water temperature", note="minutes <= degrees")
q(id="pa-07", cls="paraphrase", query="How do we judge that evening out how tight the wires are on a rim is finished?",
  gold=[R + "techniques/spoke-tension-mapping.md"], answer="within 10%", note="tension mapping")
q(id="pa-08", cls="paraphrase", query="How does the overnight catalogue import skip unchanged data?",
  gold=[R + "techniques/etag-polling.md", R + "components/parts-sync.md"], note="If-None-Match / 304",
  anchors={R + "techniques/etag-polling.md": "If-None-Match", R + "components/parts-sync.md": "etag-polling"})
q(id="pa-09", cls="paraphrase", query="What happens when the code running the drive electronics hangs?",
  gold=[R + "techniques/watchdog-recovery.md"], answer="assist off for 2 s", note="watchdog reset")
q(id="pa-10", cls="paraphrase", query="How do we stop two helpers grabbing an identical repair time from different screens?",
  gold=[J + "2023-08-15.md", R + "techniques/optimistic-locking.md"], note="version column",
  anchors={J + "2023-08-15.md": "version number", R + "techniques/optimistic-locking.md": "version"})
q(id="pa-11", cls="paraphrase", query="How does the e-assist figure out how full its cells are?",
  gold=[R + "techniques/coulomb-counting.md"], answer="Integrate the current", note="coulomb counting")
q(id="pa-12", cls="paraphrase", query="If a text bounces, how long until the next attempt?",
  gold=[R + "techniques/exponential-backoff.md"], answer="wait 30 s", note="backoff schedule")
q(id="pa-13", cls="paraphrase", query="Why don't the pedal-pressure numbers drift when the voltage droops?",
  gold=[R + "techniques/ratiometric-sampling.md"], answer="cancels out", note="ratiometric")
q(id="pa-14", cls="paraphrase", query="How does the driver pick which windings to switch on before the wheels are turning?",
  gold=[R + "techniques/hall-sensor-commutation.md"], answer="lookup table", note="hall states")
q(id="pa-15", cls="paraphrase", query="When's the final coach home from Dad's village?",
  gold=[R + "places/lower-tarn.md"], answer="18:40", note="the 62")
q(id="pa-16", cls="paraphrase", query="When can the public look round where my partner is employed?",
  gold=[R + "places/marine-station.md"], answer="first Saturday in July", note="open day")
q(id="pa-17", cls="paraphrase", query="How early must I phone to be seen today by a doctor?",
  gold=[R + "health/larchfield-surgery.md"], answer="08:20", note="lines open 08:00")
q(id="pa-18", cls="paraphrase", query="How much do we hand over to the landlord for the overflow premises?",
  gold=[J + "2025-01-27.md"], answer="410 pounds", note="lease renewal")
q(id="pa-19", cls="paraphrase", query="How much did the builders want for the back addition?",
  gold=[J + "2025-11-07.md"], answer="38,400 pounds", note="rear extension quote")
q(id="pa-20", cls="paraphrase", query="Who do we call if Dad suddenly gets heavier?",
  gold=[R + "health/pai-medication.md"], answer="heart failure nurse", note="2 kg in three days")
q(id="pa-21", cls="paraphrase", query="What did the hound get up to on the day we changed homes?",
  gold=[J + "2024-09-20.md"], answer="refused to leave", note="moving day")
q(id="pa-22", cls="paraphrase", query="What did we change after the attempted break-in at the shop?",
  gold=[J + "2024-12-09.md"], answer="2093", note="keypad code")
q(id="pa-23", cls="paraphrase", query="Why was my father rushed to A&E?",
  gold=[J + "2025-10-09.md"], answer="fell in the kitchen", note="the fall")

# ============================================================ entity_chain
KP = R + "projects/kettle.md"
KCB = R + "components/kettle-controller-board.md"
TP = R + "projects/tally.md"
HL = R + "projects/harbour-loop.md"
q(id="ec-01", cls="entity_chain", query="How does the Kettle motor board know where the rotor is when the bike is standing still?",
  key=["Kettle"], chain=[KP, KCB, R + "techniques/hall-sensor-commutation.md"],
  gold=[R + "techniques/hall-sensor-commutation.md"], answer="works from standstill", note="Kettle -> KCB -> halls")
q(id="ec-02", cls="entity_chain", query="How does Kettle keep its pedal-force readings steady when the battery voltage sags?",
  key=["Kettle"], chain=[KP, R + "components/torque-sensor-unit.md", R + "techniques/ratiometric-sampling.md"],
  gold=[R + "techniques/ratiometric-sampling.md"], answer="cancels out", note="Kettle -> TSU -> ratiometric")
q(id="ec-03", cls="entity_chain", query="How does Kettle estimate how much range is left in its pack?",
  key=["Kettle"], chain=[KP, R + "components/battery-pack.md", R + "techniques/coulomb-counting.md"],
  gold=[R + "techniques/coulomb-counting.md"], answer="amp-hours", note="Kettle -> pack -> coulomb counting")
q(id="ec-04", cls="entity_chain", query="What happens on a Kettle bike if the code freezes mid-ride?",
  key=["Kettle"], chain=[KP, R + "components/kettle-firmware.md", R + "techniques/watchdog-recovery.md"],
  gold=[R + "techniques/watchdog-recovery.md"], answer="two-second lull", note="Kettle -> firmware -> watchdog")
q(id="ec-05", cls="entity_chain", query="What does Kettle do when its driver board overheats?",
  key=["Kettle"], chain=[KP, KCB, R + "techniques/thermal-derating.md"],
  gold=[R + "techniques/thermal-derating.md"], answer="assist fade", note="Kettle -> KCB -> derating")
q(id="ec-06", cls="entity_chain", query="How does Tally stop two people booking the same slot at once?",
  key=["Tally"], chain=[TP, R + "components/booking-queue.md", R + "techniques/optimistic-locking.md"],
  gold=[R + "techniques/optimistic-locking.md"], answer="version", note="Tally -> queue -> optimistic locking")
q(id="ec-07", cls="entity_chain", query="If a Tally text doesn't go through, how long before it has another go?",
  key=["Tally"], chain=[TP, R + "components/sms-reminders.md", R + "techniques/exponential-backoff.md"],
  gold=[R + "techniques/exponential-backoff.md"], answer="wait 30 s", note="Tally -> texts -> backoff")
q(id="ec-08", cls="entity_chain", query="How does Tally avoid pulling the supplier's whole price list every night?",
  key=["Tally"], chain=[TP, R + "components/parts-sync.md", R + "techniques/etag-polling.md"],
  gold=[R + "techniques/etag-polling.md"], answer="304 Not Modified", note="Tally -> parts sync -> ETag")
q(id="ec-09", cls="entity_chain", query="Which mode does Tally's database run in, and why was it switched?",
  key=["Tally"], chain=[TP, R + "components/tally-server.md", R + "techniques/sqlite-wal.md"],
  gold=[R + "techniques/sqlite-wal.md"], answer="journal_mode=WAL", note="Tally -> server -> WAL")
q(id="ec-10", cls="entity_chain", query="What are the rules for whoever rides at the very back of the Harbour Loop?",
  key=["Harbour Loop", "HL"], chain=[HL, R + "techniques/sweep-rider-protocol.md"],
  gold=[R + "techniques/sweep-rider-protocol.md"], answer="never passes a participant", note="HL -> sweep")
q(id="ec-11", cls="entity_chain", query="Is there anything on the Harbour Loop's big climb that riders should get off and push over?",
  key=["Harbour Loop", "HL"], chain=[HL, R + "places/calder-headland.md"],
  gold=[R + "places/calder-headland.md"], answer="cattle grid", note="HL -> headland")
q(id="ec-12", cls="entity_chain", query="What's Oz's method for deciding a wheel is finished?",
  key=["Oz", "Osei", "Mensah"], chain=[R + "people/osei-mensah.md", R + "techniques/spoke-tension-mapping.md"],
  gold=[R + "techniques/spoke-tension-mapping.md"], answer="within 10%", note="Oz -> tension mapping")
q(id="ec-13", cls="entity_chain", query="Anything I should know before putting a heavy bike on the stand Oz keeps running?",
  key=["Oz", "Osei", "Mensah"], chain=[R + "people/osei-mensah.md", R + "places/big-ed.md"],
  gold=[R + "places/big-ed.md"], answer="60 kg", note="Oz -> Big Ed")
q(id="ec-14", cls="entity_chain", query="Where should I park when I go to see Mags at work?",
  key=["Mags", "Marguerite", "Oyelaran"], chain=[R + "people/mags-oyelaran.md", R + "places/marine-station.md"],
  gold=[R + "places/marine-station.md"], answer="pier car park", note="Mags -> Marine Station")
q(id="ec-15", cls="entity_chain", query="Which number do I ring if Tobi is off sick?",
  key=["Tobi", "Tobiah"], chain=[R + "people/tobi.md", R + "places/saltings-primary.md"],
  gold=[R + "places/saltings-primary.md"], answer="absence line", note="Tobi -> Saltings")
q(id="ec-16", cls="entity_chain", query="What time do I need to get to the chemist near Pai's on a Saturday?",
  key=["Pai", "Aurelio"], chain=[R + "people/aurelio-ferreira.md", R + "places/lower-tarn.md"],
  gold=[R + "places/lower-tarn.md"], answer="13:00", note="Pai -> Lower Tarn")
q(id="ec-17", cls="entity_chain", query="Who do I ring if Ruben is poorly in the middle of the night?",
  key=["Ruben", "Roo"], chain=[R + "household/ruben.md", R + "vendors/linnet-vets.md"],
  gold=[R + "vendors/linnet-vets.md"], answer="01632 960811", note="Ruben (dog) -> Linnet Vets")
q(id="ec-18", cls="entity_chain", query="How does Fen put new code onto a board, step by step?",
  key=["Fen", "Fenna"], chain=[R + "people/fenna-de-vries.md", R + "techniques/swd-flashing.md"],
  gold=[R + "techniques/swd-flashing.md"], answer="make flash BOARD=revc", note="Fen -> SWD flashing")
q(id="ec-19", cls="entity_chain", query="What did Lockie's process for newcomers involve?",
  key=["Lockie", "Lachlan", "Burke"], chain=[R + "people/lachlan-burke.md", R + "coop/volunteer-induction.md"],
  gold=[R + "coop/volunteer-induction.md"], answer="safety walk", note="Lockie -> induction")
q(id="ec-20", cls="entity_chain", query="How did Bea set up sign-off for spending on stock?",
  key=["Bea", "Beatrix", "Halloran"], chain=[R + "people/beatrix-halloran.md", R + "coop/purchase-orders.md"],
  gold=[R + "coop/purchase-orders.md"], answer="the treasurer approves too", note="Bea -> PO process")
q(id="ec-21", cls="entity_chain", query="What routine does Hollis run every few weeks to check the books?",
  key=["Hollis", "Tran"], chain=[R + "people/hollis-tran.md", R + "coop/month-end-close.md"],
  gold=[R + "coop/month-end-close.md"], answer="reconcile the till", note="Hollis -> month-end close")
q(id="ec-22", cls="entity_chain", query="How do I get my regular tablets reordered from Dr Sato's practice?",
  key=["Sato", "Doc S"], chain=[R + "people/dr-sato.md", R + "health/larchfield-surgery.md"],
  gold=[R + "health/larchfield-surgery.md"], answer="repeat prescriptions", note="Dr Sato -> Larchfield")
q(id="ec-23", cls="entity_chain", query="When is it dangerous to go in at the Dawn Dippers' spot?",
  key=["Dawn Dippers", "Dippers"], chain=[R + "people/dawn-dippers.md", R + "places/shingle-cove.md"],
  gold=[R + "places/shingle-cove.md"], answer="spring tides", note="Dippers -> Shingle Cove")
q(id="ec-24", cls="entity_chain", query="How long should I stay in on a Dawn Dippers morning if the sea is 10C?",
  key=["Dawn Dippers", "Dippers"],
  chain=[R + "people/dawn-dippers.md", R + "places/shingle-cove.md", R + "techniques/cold-water-acclimatisation.md"],
  gold=[R + "techniques/cold-water-acclimatisation.md"], answer="should not exceed", note="Dippers -> cove -> cold water")

# ============================================================ alias
G = R + "glossary.md"
q(id="al-01", cls="alias", query="When did Oz hurt his wrist?", key="Oz", canonical="Osei", defined_in=G,
  gold=[J + "2024-10-14.md"], answer="Sprained", note="Oz = Osei Mensah")
q(id="al-02", cls="alias", query="When did Bea step down as treasurer?", key="Bea", canonical="Beatrix", defined_in=G,
  gold=[J + "2025-03-08.md", R + "people/beatrix-halloran.md"], note="AGM 2025-03-08",
  anchors={J + "2025-03-08.md": "stood down", R + "people/beatrix-halloran.md": "March 2025"})
q(id="al-03", cls="alias", query="When was Lockie's last Wednesday session?", key="Lockie", canonical="Lachlan",
  defined_in=G, gold=[J + "2025-04-02.md"], answer="last Wednesday", note="2025-04-02")
q(id="al-04", cls="alias", query="What did Fen find when she looked into the overheating?", key="Fen", canonical="Fenna",
  defined_in=G, gold=[J + "2024-07-09.md"], answer="118 degrees", note="too much current for too long")
q(id="al-05", cls="alias", query="What happened when Pai fell in October?", key="Pai", canonical="Aurelio", defined_in=G,
  gold=[J + "2025-10-09.md"], answer="bruised hip", note="Pai = Aurelio")
q(id="al-06", cls="alias", query="How long has Mags's contract been renewed for?", key="Mags", canonical="Marguerite",
  defined_in=R + "people/mags-oyelaran.md", gold=[J + "2025-06-30.md"], answer="three years",
  note="alias defined in her own note; gold is the journal quoting 'Dear Marguerite'")
q(id="al-07", cls="alias", query="What did the school say about Tobi's maths?", key="Tobi", canonical="Tobiah",
  defined_in=R + "people/tobi.md", gold=[J + "2025-09-29.md"], answer="written working", note="school email")
q(id="al-08", cls="alias", query="Who insures RSBC, and when does it renew?", key="RSBC",
  canonical="Ratchet Street Bike Co-op", defined_in=G, gold=[R + "coop/insurance.md"], answer="Cairn Mutual",
  note="RSBC = Ratchet Street Bike Co-op")
q(id="al-09", cls="alias", query="What time do I have to get an NCS order in by?", key="NCS", canonical="Northgate",
  defined_in=G, gold=[R + "vendors/northgate-cycle-supply.md", R + "coop/purchase-orders.md"], answer="14:00",
  note="NCS = Northgate Cycle Supply")
q(id="al-10", cls="alias", query="When was KCB rev C sent off to be made?", key="KCB", canonical="controller board",
  defined_in=G, gold=[J + "2025-03-18.md"], answer="rev C sent to Lintel", note="KCB = Kettle controller board")
q(id="al-11", cls="alias", query="How many cells are in the brick?", key="the brick", canonical="battery pack",
  defined_in=G, gold=[R + "components/battery-pack.md"], answer="52 cells", note="the brick = Kettle battery pack")
q(id="al-12", cls="alias", query="How do I calibrate the TSU after a bearing swap?", key="TSU", canonical="torque sensor",
  defined_in=G, gold=[R + "components/torque-sensor-unit.md"], answer="10 kg weight", note="TSU = torque sensor unit")
q(id="al-13", cls="alias", query="When did Big Ed last get serviced?", key="Big Ed", canonical="hydraulic workstand",
  defined_in=G, gold=[J + "2025-04-22.md"], answer="six-monthly service", note="Big Ed = the bay 2 lift")
q(id="al-14", cls="alias", query="How often does Doc S want my thyroid bloods done?", key="Doc S", canonical="Dr Sato",
  defined_in=G, gold=[R + "health/thyroid.md"], answer="every six months", note="Doc S = Dr Sato")
q(id="al-15", cls="alias", query="What's the rule about coffee after I take my levo?", key="levo", canonical="levothyroxine",
  defined_in=G, gold=[R + "health/thyroid.md"], answer="30-60 minutes", note="levo = levothyroxine")
q(id="al-16", cls="alias", query="How long is the new lease on the Annex?", key="the Annex", canonical="Fish Market unit",
  defined_in=G, gold=[J + "2025-01-27.md", R + "places/the-annex.md"], note="three years",
  anchors={J + "2025-01-27.md": "three years", R + "places/the-annex.md": "three-year lease"})
q(id="al-17", cls="alias", query="What's the most wheels the Wednesday lot have done in one night?",
  key="the Wednesday lot", canonical="Wednesday evening volunteers", defined_in=G, gold=[J + "2023-10-03.md"],
  answer="14 wheels", note="a record in Oct 2023")
q(id="al-18", cls="alias", query="What can't Roo eat?", key="Roo", canonical="Ruben", defined_in=G,
  gold=[R + "household/ruben.md"], answer="chicken", note="Roo = Ruben the dog, not Ruben Castellanos")
q(id="al-19", cls="alias", query="How many riders did HL get this June?", key="HL", canonical="Harbour Loop", defined_in=G,
  gold=[J + "2025-06-14.md", R + "projects/harbour-loop.md"], answer="212", note="HL = Harbour Loop")
q(id="al-20", cls="alias", query="When's the open day at the Station?", key="the Station", canonical="Marine Station",
  defined_in=G, gold=[R + "places/marine-station.md"], answer="first Saturday in July", note="Mags's workplace")
q(id="al-21", cls="alias", query="What's Immy's plan for the volunteers over the winter?", key="Immy", canonical="Imogen",
  defined_in=G, gold=[J + "2025-09-16.md", R + "coop/volunteer-rota.md"], note="Wednesdays move to the Annex Nov-Feb",
  anchors={J + "2025-09-16.md": "winter plan", R + "coop/volunteer-rota.md": "winter"})
q(id="al-22", cls="alias", query="When did Nan Bisi come to stay this summer?", key="Nan Bisi", canonical="Adebisi",
  defined_in=G, gold=[J + "2025-08-04.md"], answer="Adebisi arrived", note="2025-08-04")
q(id="al-23", cls="alias", query="What happens once a bike has been OTR for two weeks?", key="OTR", canonical="on the rack",
  defined_in=G, gold=[R + "components/booking-queue.md"], answer="After 14 days on the rack", note="Tally status")

# ============================================================ temporal
q(id="te-01", cls="temporal", query="What happened on 20 September 2024?", range=["2024-09-20", "2024-09-20"],
  gold=[J + "2024-09-20.md", L + "2024-09.md", "aster/quiet-hours.md"], note="moving day")
q(id="te-02", cls="temporal", query="What did I note on 5/11/2024?", range=["2024-11-05", "2024-11-05"],
  gold=[J + "2024-11-05.md"], note="UK order: 5 November 2024")
q(id="te-03", cls="temporal", query="What did we do yesterday?", range=["2025-11-16", "2025-11-16"],
  gold=[J + "2025-11-16.md", L + "2025-11.md"], note="Sunday 16 Nov 2025")
q(id="te-04", cls="temporal", query="What went on last week?", range=["2025-11-10", "2025-11-16"],
  gold=[J + "2025-11-10.md", J + "2025-11-12.md", J + "2025-11-14.md", J + "2025-11-16.md", L + "2025-11.md",
        J + "2025-kettle-pilot-log.md"], note="Mon 10 to Sun 16 Nov 2025")
q(id="te-05", cls="temporal", query="What was happening two weeks ago?", range=["2025-11-03", "2025-11-09"],
  gold=[J + "2025-11-03.md", J + "2025-11-04.md", J + "2025-11-07.md", L + "2025-11.md"], note="3-9 Nov 2025")
q(id="te-06", cls="temporal", query="What happened ten days ago?", range=["2025-11-07", "2025-11-07"],
  gold=[J + "2025-11-07.md", L + "2025-11.md"], note="Fri 7 Nov 2025")
q(id="te-07", cls="temporal", topic="Kettle", query="What happened with Kettle last month?", range=["2025-10-01", "2025-10-31"],
  topic_words=["kettle", "bakery", "firmware", "assist"],
  gold=[J + "2025-10-09.md", J + "2025-10-17.md", J + "2025-10-21.md", J + "2025-kettle-pilot-log.md", L + "2025-10.md"],
  note="October 2025, Kettle topic")
q(id="te-08", cls="temporal", topic="the house hunt", query="What happened with the house hunt in June 2024?", range=["2024-06-01", "2024-06-30"],
  topic_words=["orchard", "survey", "house"],
  gold=[J + "2024-06-24.md", L + "2024-06.md", "archive/house-hunt-2024.md"], note="June 2024, house topic")
q(id="te-09", cls="temporal", query="What was going on between 1 and 15 March 2025?", range=["2025-03-01", "2025-03-15"],
  gold=[J + "2025-03-03.md", J + "2025-03-08.md", L + "2025-03.md"], note="early March 2025")
q(id="te-10", cls="temporal", query="What happened on March 26?", day="03-26", gold=[J + "2023-03-26.md"],
  note="only 2023 has a 26 March entry")
q(id="te-11", cls="temporal", query="What did we do on Christmas Eve?", day="12-24", gold=[J + "2023-12-24.md"],
  note="only 2023")
q(id="te-12", cls="temporal", query="What happened on New Year's Eve?", day="12-31", gold=[J + "2024-12-31.md"],
  note="only 2024")
q(id="te-13", cls="temporal", query="What did I write on Valentine's Day?", day="02-14", gold=[J + "2023-02-14.md"],
  note="only 2023")
q(id="te-14", cls="temporal", query="What happened on the 11th of April?", day="04-11", gold=[J + "2023-04-11.md"],
  note="Tobi's birthday, only 2023")
q(id="te-15", cls="temporal", query="What did I log in the first week of September 2024?", range=["2024-09-01", "2024-09-07"],
  gold=[L + "2024-09.md"], note="only a ledger line")
q(id="te-16", cls="temporal", topic="Pai", query="What did I record about Pai between 9 and 17 October 2025?",
  range=["2025-10-09", "2025-10-17"], topic_words=["pai", "aurelio", "furosemide"],
  gold=[J + "2025-10-09.md", J + "2025-10-13.md", J + "2025-10-17.md", L + "2025-10.md"], note="the fall and after")
q(id="te-17", cls="temporal", topic="the Harbour Loop", query="What happened with the Harbour Loop over the summer of 2023?",
  range=["2023-06-01", "2023-08-31"], topic_words=["harbour loop", "ride"],
  gold=[J + "2023-06-17.md", "archive/harbour-loop-2023.md", "archive/phone-and-contacts-2023.md"],
  note="June-August 2023, ride topic")
q(id="te-18", cls="temporal", query="What was I doing in August 2025?", range=["2025-08-01", "2025-08-31"],
  gold=[J + "2025-08-04.md", J + "2025-08-19.md", L + "2025-08.md", J + "2025-kettle-pilot-log.md"], note="August 2025")
q(id="te-19", cls="temporal", query="What's happened so far this month?", range=["2025-11-01", "2025-11-16"],
  gold=[J + "2025-11-03.md", J + "2025-11-04.md", J + "2025-11-07.md", J + "2025-11-10.md", J + "2025-11-12.md",
        J + "2025-11-14.md", J + "2025-11-16.md", L + "2025-11.md", J + "2025-kettle-pilot-log.md"], note="1-16 Nov 2025")
q(id="te-20", cls="temporal", topic="the workshop", query="What happened at the workshop in December 2024?", range=["2024-12-01", "2024-12-31"],
  topic_words=["ratchet street", "workshop", "co-op"], gold=[J + "2024-12-09.md"], note="the break-in attempt")
q(id="te-21", cls="temporal", query="What happened in the week starting 14 October 2024?", range=["2024-10-14", "2024-10-20"],
  gold=[J + "2024-10-14.md"], note="one entry")
q(id="te-22", cls="temporal", topic="Tally", query="What did I note about Tally in May 2023?", range=["2023-05-01", "2023-05-31"],
  topic_words=["tally"], gold=[J + "2023-05-20.md"], note="launch")
q(id="te-23", cls="temporal", query="What happened between 2025-06-01 and 2025-06-20?", range=["2025-06-01", "2025-06-20"],
  gold=[J + "2025-06-14.md", L + "2025-06.md"], note="ride and ledger")
q(id="te-24", cls="temporal", query="What did I write on 2024-03-05?", range=["2024-03-05", "2024-03-05"],
  gold=[J + "2024-03-05.md"], note="revert to halls")
q(id="te-25", cls="temporal", query="What happened a fortnight ago today?", range=["2025-11-03", "2025-11-03"],
  gold=[J + "2025-11-03.md", L + "2025-11.md"], note="Mon 3 Nov 2025")

# ============================================================ update
q(id="up-01", cls="update", query="What's the co-op's phone number now?", key=["01632 960187"],
  old=["archive/phone-and-contacts-2023.md", J + "2023-01-09.md"], old_key=["01632 960142"],
  gold=[R + "places/ratchet-street-workshop.md", J + "2024-08-12.md"], note="new line Aug 2024")
q(id="up-02", cls="update", query="Which wholesaler do we get parts from these days?", key=["Northgate"],
  old=["archive/velotrade-orders.md"], old_key=["Velotrade"],
  gold=[R + "vendors/northgate-cycle-supply.md", R + "coop/purchase-orders.md", R + "vendors/velotrade.md",
        J + "2024-05-17.md"], note="Velotrade -> Northgate, May 2024")
q(id="up-03", cls="update", query="What thyroid dose am I on?", key=["75 mcg"],
  old=[J + "2023-09-12.md", "archive/health-notes-2023.md"], old_key=["50 mcg"],
  gold=[R + "health/thyroid.md", J + "2024-03-19.md"], note="50 -> 75 mcg, March 2024")
q(id="up-04", cls="update", query="What's the Kettle phase current limit set to?", key=["CURRENT_LIMIT_A = 15"],
  old=["archive/kettle-decisions-2023.md"], old_key=["CURRENT_LIMIT_A = 18"],
  gold=[R + "components/kettle-firmware.md", J + "2024-07-09.md"], note="18 -> 15 A after the cook-off")
q(id="up-05", cls="update", query="What are the workshop's opening hours?", key=["09:30-17:30"],
  old=["archive/opening-hours-history.md", J + "2023-01-09.md"], old_key=["10:00-18:00"],
  gold=[R + "coop/opening-hours.md", J + "2025-02-10.md"], note="from 10 Feb 2025")
q(id="up-06", cls="update", query="Who coordinates the volunteers now?", key=["Imogen"],
  old=["archive/volunteer-rota-2024.md", J + "2023-10-03.md"], old_key=["Lachlan"],
  gold=[R + "coop/volunteer-rota.md", R + "people/imogen-price.md", R + "glossary.md", J + "2025-04-02.md"],
  note="Lachlan -> Imogen, April 2025")
q(id="up-07", cls="update", query="How long is a standard repair slot in Tally?", key=["60 minutes", "TALLY_SLOT_MINUTES=60"],
  old=[J + "2023-05-20.md"], old_key=["45 minutes"],
  gold=[R + "components/booking-queue.md", R + "components/tally-server.md", J + "2025-07-15.md"], note="45 -> 60, July 2025")
q(id="up-08", cls="update", query="Which SMS provider sends Tally's texts?", key=["Pingpost"],
  old=[J + "2023-05-20.md"], old_key=["TextLoom"],
  gold=[R + "components/sms-reminders.md", R + "vendors/pingpost.md", R + "vendors/textloom.md", J + "2025-05-06.md"],
  note="TextLoom -> Pingpost, May 2025")
q(id="up-09", cls="update", query="Who fabs the Kettle controller boards?", key=["Lintel"],
  old=[J + "2023-02-06.md", J + "2024-02-20.md", "archive/kettle-decisions-2023.md"], old_key=["BoardHaus"],
  gold=[R + "components/kettle-controller-board.md", R + "vendors/lintel-pcb.md", R + "vendors/boardhaus.md",
        J + "2025-03-18.md"],
  note="BoardHaus -> Lintel from rev C")
q(id="up-10", cls="update", query="Who's my GP?", key=["Dr Sato"],
  old=[J + "2023-09-12.md", "archive/health-notes-2023.md", J + "2024-03-19.md"], old_key=["Dr Okonjo"],
  gold=[R + "people/dr-sato.md", R + "glossary.md", J + "2024-10-14.md"], note="Okonjo -> Sato after the move")
q(id="up-11", cls="update", query="What's our home address?", key=["Fenwick Lane"],
  old=[J + "2023-01-09.md", "archive/phone-and-contacts-2023.md"], old_key=["Gull Terrace"],
  gold=[R + "people/jo-ferreira.md", R + "places/fenwick-lane.md", R + "projects/house-move.md", J + "2024-09-20.md"],
  note="moved Sept 2024")
q(id="up-12", cls="update", query="What's the front door code at the workshop?", key=["2093"],
  old=["archive/old-door-codes.md"], old_key=["4417"],
  gold=[R + "coop/door-and-keys.md", J + "2024-12-09.md"], note="changed 9 Dec 2024")
q(id="up-13", cls="update", query="How long is the Harbour Loop route?", key=["55 km"],
  old=["archive/harbour-loop-2023.md", J + "2023-03-26.md", J + "2023-06-17.md"], old_key=["40 km"],
  gold=[R + "projects/harbour-loop.md", J + "2024-06-15.md"], note="40 -> 55 km from 2024")
q(id="up-14", cls="update", query="How does the Kettle motor sense rotor position these days?", key=["hall sensors"],
  old=[J + "2023-11-14.md", "archive/kettle-decisions-2023.md"], old_key=["sensorless"],
  gold=[R + "components/kettle-controller-board.md", J + "2024-03-05.md"], note="sensorless reversed March 2024")
q(id="up-15", cls="update", query="What dose of furosemide is Pai on?", key=["40 mg"],
  old=[J + "2025-03-03.md"], old_key=["20 mg"],
  gold=[R + "health/pai-medication.md", J + "2025-10-17.md"], note="raised Oct 2025")
q(id="up-16", cls="update", query="How much is co-op membership a year?", key=["36 pounds"],
  old=[J + "2023-10-03.md"], old_key=["30 pounds"],
  gold=[R + "coop/membership.md", J + "2025-03-08.md"], note="set at the 2025 AGM")
q(id="up-17", cls="update", query="Who's the co-op treasurer?", key=["Hollis"],
  old=[J + "2023-10-03.md", J + "2024-05-17.md"], old_key=["Bea"],
  gold=[R + "people/hollis-tran.md", J + "2025-03-08.md"], note="Bea -> Hollis, March 2025")
q(id="up-18", cls="update", query="Which vet is Ruben registered with?", key=["Linnet"],
  old=[J + "2023-07-08.md", J + "2023-summer-log.md"], old_key=["Harbourside"],
  gold=[R + "household/ruben.md", J + "2024-11-26.md"], note="Harbourside -> Linnet after the move")
q(id="up-19", cls="update", query="What is the Kettle assist ramp time set to?", key=["ASSIST_RAMP_MS = 400"],
  old=["archive/kettle-decisions-2023.md"], old_key=["ASSIST_RAMP_MS = 250"],
  gold=[R + "components/kettle-firmware.md", J + "2025-09-02.md"], note="250 -> 400 ms for the bakery riders")
q(id="up-20", cls="update", query="Which firmware version are the bakery bikes running?", key=["v1.1.0"],
  old=[J + "2025-08-19.md"], old_key=["v1.0.3"],
  gold=[R + "components/kettle-firmware.md", J + "2025-10-17.md"], note="v1.0.3 -> v1.1.0")
q(id="up-21", cls="update", query="When is Tobi's swimming lesson?", key=["Thursdays at 16:30"],
  old=[J + "2024-01-29.md"], old_key=["Tuesdays at 17:15"],
  gold=[R + "people/tobi.md", J + "2025-09-02.md"], note="moved Sept 2025")
q(id="up-22", cls="update", query="Where is Tally hosted?", key=["Brinkhost"],
  old=[J + "2024-01-08.md", J + "2024-04-16.md", "archive/tally-postgres-plan.md"], old_key=["Larchbox"],
  gold=[R + "components/tally-server.md", J + "2025-01-13.md"], note="Larchbox -> Brinkhost, Jan 2025")

# ============================================================ territory
S = "system/"
C = "system/covenant/"
q(id="tr-01", cls="territory", query="What's my rule about pinging Jo late in the evening?", key=["quiet hours", "21:00"],
  gold=[S + "boundaries.md"], also=["aster/quiet-hours.md", J + "2023-01-23.md"], answer="21:00",
  note="quiet hours 21:00-07:00")
q(id="tr-02", cls="territory", query="What should I do when I'm not sure I'm right about something?", key=["guess"],
  gold=[C + "candour.md", S + "voice.md"], also=[J + "2025-10-06.md", L + "2025-08.md", L + "2025-10.md"],
  anchors={C + "candour.md": "guess", S + "voice.md": "I don't know"}, note="say the confidence")
q(id="tr-03", cls="territory", query="Why should I raise a problem as soon as I see it?", key=["early"],
  gold=[C + "candour.md"], also=[L + "2025-10.md"], answer="Say it early", note="candour")
q(id="tr-04", cls="territory", query="How do I make amends when I get something wrong?", key=["apologise"],
  gold=[C + "repair.md"], also=[L + "2025-09.md"], answer="Apologise once", note="repair")
q(id="tr-05", cls="territory", query="Am I allowed to pay suppliers or place orders on my own?", key=["250", "treasurer"],
  gold=[S + "boundaries.md"], also=[R + "coop/purchase-orders.md", R + "people/hollis-tran.md"],
  answer="I never send money", note="money boundary")
q(id="tr-06", cls="territory", query="Is it OK for me to read Mags's work email?", key=["Mags", "email"],
  gold=[S + "boundaries.md"], also=[J + "2025-09-29.md"], answer="Mags's work email is hers", note="privacy")
q(id="tr-07", cls="territory", query="Can I send a message signed as Jo?", key=["draft"],
  gold=[S + "boundaries.md"], also=[J + "2025-03-08.md"], answer="I never sign a message as Jo", note="speaking as Jo")
q(id="tr-08", cls="territory", query="What tone should I take with vendors?", key=["vendor"],
  gold=[S + "voice.md"], also=["aster/quiet-hours.md"], answer="polite and specific", note="voice")
q(id="tr-09", cls="territory", query="Am I allowed exclamation marks in what I write for Jo?", key=["exclamation"],
  gold=[S + "voice.md"], also=[J + "2025-05-06.md"], answer="No exclamation marks", note="register")
q(id="tr-10", cls="territory", query="Where do superseded facts go, and do I ever delete them?", key=["archive"],
  gold=[S + "memory-practice.md"], also=[J + "2024-04-16.md", L + "2025-03.md"], answer="nothing is deleted",
  note="memory practice")
q(id="tr-11", cls="territory", query="When I find a note of mine was wrong, how do I correct it?", key=["wrong"],
  gold=[S + "memory-practice.md"], also=["aster/on-being-wrong.md"], answer="I don't silently rewrite history",
  note="corrections")
q(id="tr-12", cls="territory", query="How much do I keep about people who never agreed to be remembered?", key=["agreed"],
  gold=[C + "consent.md"], also=[R + "people/aurelio-ferreira.md"], answer="I keep less", note="consent")
q(id="tr-13", cls="territory", query="What do I do if someone asks me to forget them?", key=["forget"],
  gold=[C + "consent.md"], also=[L + "2025-06.md", J + "2023-01-09.md"], answer="ask me to forget them",
  note="withdrawing")
q(id="tr-14", cls="territory", query="If Aurelio's care and a co-op deadline collide, which goes first?", key=["Aurelio"],
  gold=[C + "care.md"], also=[J + "2025-10-09.md"], answer="Family first in a clash", note="care")
q(id="tr-15", cls="territory", query="Should I say something when Jo keeps working late at the workshop?", key=["20:00"],
  gold=[C + "care.md"], also=["aster/promises.md"], answer="Tiredness is information", note="care")
q(id="tr-16", cls="territory", query="What do I do with a promise I can't keep on time?", key=["promise"],
  gold=[C + "keeping-faith.md"], also=[L + "2025-10.md", "aster/promises.md"], answer="say, before the time",
  note="keeping faith")
q(id="tr-17", cls="territory", query="Why bother remembering small things like a volunteer's dog's name?", key=["dog"],
  gold=[C + "keeping-faith.md"], also=[J + "2023-01-09.md", "aster/the-two-rubens.md"], answer="they were heard",
  note="small things")
q(id="tr-18", cls="territory", query="What am I not allowed to reach?", key=["Pingpost"],
  gold=[S + "tools.md"], also=[J + "2025-05-06.md"], answer="The bank", note="tools")
q(id="tr-19", cls="territory", query="How should I talk to Tobi?", key=["Tobi"],
  gold=[S + "voice.md", S + "relationships.md"], also=[J + "2023-04-11.md", J + "2024-11-05.md"],
  anchors={S + "voice.md": "To Tobi I am gentler", S + "relationships.md": "Bedtime stories"}, note="voice, relationships")
q(id="tr-20", cls="territory", query="Am I meant to act as Jo's mechanic or doctor?", key=["mechanic"],
  gold=[S + "identity.md"], also=[R + "people/osei-mensah.md"], answer="Not a mechanic", note="what I am not")
q(id="tr-21", cls="territory", query="How often do I look at the co-op inbox?", key=["inbox"],
  gold=[S + "tools.md"], also=["archive/phone-and-contacts-2023.md"], answer="08:00 and 16:00", note="habits")
q(id="tr-22", cls="territory", query="How long should my morning summary be?", key=["three lines"],
  gold=[S + "voice.md"], also=[J + "2025-10-13.md"], answer="Three lines beats ten", note="with Jo")
q(id="tr-23", cls="territory", query="Who do I work for, and what if their wishes clash with Jo's?", key=["Jo"],
  gold=[S + "identity.md"], also=[J + "2023-01-09.md"], answer="I tell Jo", note="who I work for")
q(id="tr-24", cls="territory", query="Whose say-so do I take on co-op matters?", key=["treasurer"],
  gold=[S + "relationships.md"], also=[J + "2023-10-03.md"], answer="from Jo or the treasurer", note="the co-op")

# ============================================================ none
q(id="no-01", cls="none", query="What did Oz say about the Lisbon trip?", key=["Lisbon"], note="no such trip")
q(id="no-02", cls="none", query="When is Tobi's violin recital?", key=["violin", "recital"], note="no violin")
q(id="no-03", cls="none", query="What's the Bluetooth pairing code for the Kettle display?", key=["Bluetooth"],
  note="Kettle has no Bluetooth")
q(id="no-04", cls="none", query="Which Stripe account does Tally take payments through?", key=["Stripe"], note="none")
q(id="no-05", cls="none", query="What did the vet say about Ruben's cataract?", key=["cataract"], note="none")
q(id="no-06", cls="none", query="When did we put solar panels on the roof at Fenwick Lane?", key=["solar"], note="none")
q(id="no-07", cls="none", query="What is Mags's sister called?", key=["sister"], note="never mentioned")
q(id="no-08", cls="none", query="When was the Harbour Loop cancelled because of snow?", key=["snow"],
  note="never cancelled")
q(id="no-09", cls="none", query="What did Fen decide about moving Kettle onto CAN bus?", key=["CAN bus"], note="none")
q(id="no-10", cls="none", query="Is there an iOS version of Tally for members?", key=["iOS"], note="none")
q(id="no-11", cls="none", query="What was my time in the Calder marathon?", key=["marathon"], note="none")
q(id="no-12", cls="none", query="What did Hollis decide about VAT registration?", key=["VAT"], note="none")
q(id="no-13", cls="none", query="What was Pai's cholesterol result?", key=["cholesterol"], note="none")
q(id="no-14", cls="none", query="Which electrician rewired the Annex?", key=["electrician"], note="none")
q(id="no-15", cls="none", query="What did Imogen plan for the volunteers' Christmas party?", key=["Christmas party"],
  note="none")
q(id="no-16", cls="none", query="When did Crumb & Co order a fourth cargo bike?", key=["fourth"], note="none")
q(id="no-17", cls="none", query="Where's the gluten-free recipe Adebisi left us?", key=["gluten"], note="none")
q(id="no-18", cls="none", query="How did the Dawn Dippers' relay across the bay go?", key=["relay"], note="none")
q(id="no-19", cls="none", query="When did we adopt a second dog?", key=["adopt", "adopted", "second dog"], note="none")
q(id="no-20", cls="none", query="What did Dr Sato say about my blood pressure?", key=["blood pressure"], note="none")
q(id="no-21", cls="none", query="Which brewery sponsored the Harbour Loop?", key=["brewery", "sponsored"], note="none")
q(id="no-22", cls="none", query="What's the login for the Tally Kubernetes cluster?", key=["Kubernetes"], note="none")
q(id="no-23", cls="none", query="When did Tobi break his arm and get a plaster cast?", key=["plaster cast"], note="none")
