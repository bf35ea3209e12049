/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_EXTENSION_H
#define RDMA_CC_EXTENSION_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup rdma
 * The optional part of a congestion controller: its own timing of the QP's sends, that is
 * pacing by credit, RTT probes and the retransmission timeout, which most controllers
 * leave to the NIC (its rate pacing, no probes, the loss-recovery policy's timeout). A
 * controller that times them inherits this interface next to CongestionControl and
 * returns itself from CongestionControl::DoGetExtension(); the NIC calls these methods
 * only on a controller whose GetExtension() is not null, and only those its
 * ImplementedHooks() declares (HOOK_PACING: PacingDelay, PacingRecheck, PacesByCredit and
 * the DRAINED send event; HOOK_PROBE: WantsProbe and the probe's outcome; HOOK_RTO:
 * RetransmissionTimeout). A method left out answers as the default here.
 *
 * Call order, in addition to CongestionControl's: WantsProbe before each data packet
 * while no probe of the controller is outstanding (a probe takes the packet's turn);
 * PacingDelay when a pacing gap has passed (with PacesByCredit, as soon as the next
 * packet is ready); PacesByCredit right after OnSendEvent(SEND) (and DRAINED) of each
 * data packet; OnProbeResponse or OnProbeTimeout once per probe; PacingRecheck and
 * RetransmissionTimeout at any time after Init. Time is the controller's Now().
 *
 * It is not an Object and owns nothing: its lifetime is the controller's, which cannot
 * be deleted through it.
 */
class CcSendTiming
{
  public:
    /**
     * Pacing by credit (HOOK_PACING). The NIC fixes the gap after a packet at the rate of
     * that moment; a controller whose rate can change for reasons of its own between two
     * of its packets (a claim shared with other QPs) may hold the next one back: asked
     * when the gap has passed, it returns how much longer the QP must wait before it has
     * earned \p lastWireBytes, the wire size of its previous packet, at the rates in
     * force since that packet left.
     * \param lastWireBytes wire bytes of the QP's previous packet (0 before its first)
     * \return the further wait (0 or negative: send now); default 0
     */
    virtual Time PacingDelay(uint32_t lastWireBytes);
    /**
     * Longest time the NIC should wait before asking PacingDelay() again, so that a rate
     * that rises during a long gap takes effect within it (HOOK_PACING). Must not change
     * state.
     * \return the cap on any pacing wait; default Time::Max() (the NIC waits the whole gap)
     */
    virtual Time PacingRecheck() const;
    /**
     * Whether the controller decides every gap itself, by credit (HOOK_PACING; per-QP rate
     * limiting only). The NIC then fixes no gap at GetRate() after a packet but asks
     * PacingDelay() as soon as the QP has another packet ready (and again when the wait
     * it returned has passed), so that the controller may lengthen or shorten any gap.
     * Asked after each data packet's OnSendEvent(SEND) (and DRAINED); must not change
     * state.
     * \return true to pace by credit; default false (PacingDelay only lengthens the gap)
     */
    virtual bool PacesByCredit() const;
    /**
     * Asked before each data packet while no probe of this controller is outstanding (the
     * NIC keeps at most one) (HOOK_PROBE; no probe is sent without it).
     * \return whether the NIC should send an RTT probe now, in this packet's turn;
     *         default false
     */
    virtual bool WantsProbe();
    /**
     * The response to the outstanding probe arrived (HOOK_PROBE). The NIC then re-paces
     * the QP at GetRate(). Default: nothing.
     * \param rtt the probe's round-trip time
     */
    virtual void OnProbeResponse(Time rtt);
    /**
     * The outstanding probe got no response within the NIC's probe timeout (which then
     * doubles); the probe is given up (HOOK_PROBE). Default: nothing.
     */
    virtual void OnProbeTimeout();
    /**
     * The retransmission timeout the controller wants (HOOK_RTO; e.g. Swift: srtt + 4
     * rttvar, RFC 6298's estimator). Asked when the NIC arms the QP's timer. Must not
     * change state.
     * \return the timeout; zero (the default) means the loss-recovery policy's
     *         (LossRecovery::GetRto)
     */
    virtual Time RetransmissionTimeout() const;

  protected:
    virtual ~CcSendTiming() = default;
};

} // namespace ns3

#endif /* RDMA_CC_EXTENSION_H */
