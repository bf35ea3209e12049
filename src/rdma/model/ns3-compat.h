/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every difference between the ns-3 releases the module builds with, 3.37 to 3.48, in one
 * place: the model names ns3::compat's names and never tests the version itself.
 *
 * RDMA_NS3_VERSION is ns-3's version as major * 1000 + minor (3.37: 3037), passed by the
 * module's CMakeLists.txt from NS3_VER (an ns-3 tree's VERSION file) or ns3_VERSION (an
 * installed ns-3's CMake package). A tree whose VERSION is not a release number (3-dev)
 * gets the newest API's value.
 */
#ifndef NS3_RDMA_NS3_COMPAT_H
#define NS3_RDMA_NS3_COMPAT_H

#include "ns3/attribute-accessor-helper.h"
#include "ns3/enum.h"
#include "ns3/event-id.h"
#include "ns3/simple-ref-count.h"

#ifndef RDMA_NS3_VERSION
#error "RDMA_NS3_VERSION is not defined: build the rdma module with its CMakeLists.txt"
#endif

namespace ns3
{
namespace compat
{

/// The empty base class of SimpleRefCount (simple-ref-count.h): ns3::empty until 3.37,
/// ns3::Empty from 3.38
/// (renamed without an alias).
#if RDMA_NS3_VERSION >= 3038
using Empty = ns3::Empty;
#else
using Empty = ns3::empty;
#endif

#if RDMA_NS3_VERSION >= 3041
/// What SimulatorImpl::Stop(const Time&) returns: the stop event's id from 3.41, nothing
/// before.
using SimulatorStopResult = EventId;

/// \p id as SimulatorImpl::Stop(const Time&) returns it (`return ToStopResult(id);` is
/// valid for both return types).
inline EventId
ToStopResult(const EventId& id)
{
    return id;
}

/// The value class of an enum attribute of type \p E: a template from 3.41.
template <typename E>
using EnumValueOf = EnumValue<E>;

/// MakeEnumAccessor for the data member \p member: from 3.41 ns-3 needs the enum type
/// named, which is deduced here from the member.
template <typename C, typename E>
Ptr<const AttributeAccessor>
MakeEnumAccessor(E C::*member)
{
    return ns3::MakeEnumAccessor<E>(member);
}

/// MakeEnumAccessor for the attribute setter \p setter and getter \p getter (member
/// functions): the enum type is deduced from the getter's result.
template <typename C, typename E, typename U>
Ptr<const AttributeAccessor>
MakeEnumAccessor(void (C::*setter)(U), E (C::*getter)() const)
{
    return ns3::MakeEnumAccessor<E>(setter, getter);
}
#else
using SimulatorStopResult = void;

inline void
ToStopResult(const EventId&)
{
}

template <typename E>
using EnumValueOf = EnumValue;

template <typename C, typename E>
Ptr<const AttributeAccessor>
MakeEnumAccessor(E C::*member)
{
    return ns3::MakeEnumAccessor(member);
}

template <typename C, typename E, typename U>
Ptr<const AttributeAccessor>
MakeEnumAccessor(void (C::*setter)(U), E (C::*getter)() const)
{
    return ns3::MakeEnumAccessor(setter, getter);
}
#endif

/// A 128-bit unsigned integer. A GCC/Clang extension: without __extension__ the
/// -Wpedantic of ns-3's debug builds (3.42 on, with -Werror) rejects it.
__extension__ typedef unsigned __int128 Uint128;

} // namespace compat
} // namespace ns3

#endif // NS3_RDMA_NS3_COMPAT_H
